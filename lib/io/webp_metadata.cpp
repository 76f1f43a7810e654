// A WebP's ICCP, EXIF and "XMP " chunks: read through libwebpdemux, which
// the decoder links already, and written by libwebpmux, which puts them in
// the extended (VP8X) layout, with its flags saying which are there.
#include <webp/demux.h>
#include <webp/mux.h>

#include <memory>
#include <new>

#include "backends.hpp"
#include "metadata_formats.hpp"

namespace gpuimg {

void read_webp_metadata(const Bytes& file, Metadata& out) {
  const WebPData data{file.data(), file.size()};
  const std::unique_ptr<WebPDemuxer, void (*)(WebPDemuxer*)> demux(WebPDemux(&data), WebPDemuxDelete);
  if (!demux) return;  // decode_webp says why
  const auto item = [&](const char* fourcc, Bytes& into) {
    WebPChunkIterator chunk;
    if (!WebPDemuxGetChunk(demux.get(), fourcc, 1, &chunk)) return;
    into.assign(chunk.chunk.bytes, chunk.chunk.bytes + chunk.chunk.size);
    WebPDemuxReleaseChunkIterator(&chunk);
  };
  item("ICCP", out.icc);
  item("EXIF", out.exif);
  item("XMP ", out.xmp);
  const std::string problem = out.icc.empty() ? "" : icc_problem(out.icc);
  if (!problem.empty()) {
    out.ignored.push_back("the ICC profile of a WebP (" + problem + ")");
    out.icc.clear();
  }
}

Bytes webp_with_metadata(Bytes webp, const Metadata& m) {
  if (m.no_blocks()) return webp;
  const std::unique_ptr<WebPMux, void (*)(WebPMux*)> mux(WebPMuxNew(), WebPMuxDelete);
  if (!mux) throw std::bad_alloc();
  const WebPData image{webp.data(), webp.size()};
  bool ok = WebPMuxSetImage(mux.get(), &image, 0) == WEBP_MUX_OK;
  // copy_data 0: the mux points into `m` and `webp`, alive until Assemble returns.
  const auto chunk = [&](const char* fourcc, const Bytes& item) {
    const WebPData bytes{item.data(), item.size()};
    if (!item.empty()) ok = ok && WebPMuxSetChunk(mux.get(), fourcc, &bytes, 0) == WEBP_MUX_OK;
  };
  chunk("ICCP", m.icc);
  chunk("EXIF", m.exif);
  chunk("XMP ", m.xmp);
  WebPData assembled;
  WebPDataInit(&assembled);
  ok = ok && WebPMuxAssemble(mux.get(), &assembled) == WEBP_MUX_OK;
  Bytes out(assembled.bytes, assembled.bytes + (ok ? assembled.size : 0));
  WebPDataClear(&assembled);
  if (!ok) throw CodecFailure("cannot add the metadata to the WebP (libwebpmux)");
  return out;
}

}  // namespace gpuimg
