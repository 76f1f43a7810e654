// TIFF written through libtiff, which reads it too (tiff_codec.cpp):
// LZW with the horizontal predictor, as OpenCV wrote it before; gray, RGB
// or RGBA (unassociated alpha), 8 or 16 bits, into bytes in memory. EXIF
// goes in as tags (tiff_exif.hpp), the file in the block's byte order.
#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <memory>

#include "backends.hpp"
#include "tiff_exif.hpp"
#include "tiff_memory.hpp"

namespace gpuimg {
namespace {

struct GrowingFile {
  Bytes bytes;
  std::uint64_t pos = 0;
};

GrowingFile& file_of(thandle_t h) { return *static_cast<GrowingFile*>(h); }

tmsize_t read_proc(thandle_t h, void* buf, tmsize_t n) { return read_at(file_of(h).bytes, file_of(h).pos, buf, n); }

tmsize_t write_proc(thandle_t h, void* buf, tmsize_t n) {
  GrowingFile& f = file_of(h);
  const auto* from = static_cast<const std::uint8_t*>(buf);
  try {
    if (f.bytes.size() < f.pos + n) f.bytes.resize(f.pos + n);
  } catch (const std::bad_alloc&) {
    return -1;  // libtiff is C: it reports the failed write
  }
  std::copy_n(from, n, f.bytes.data() + f.pos);
  f.pos += n;
  return n;
}

toff_t seek_proc(thandle_t h, toff_t offset, int whence) {
  return seek_to(file_of(h).bytes.size(), file_of(h).pos, offset, whence);
}

int close_proc(thandle_t) { return 0; }
toff_t size_proc(thandle_t h) { return file_of(h).bytes.size(); }
int map_proc(thandle_t, void**, toff_t*) { return 0; }
void unmap_proc(thandle_t, void*, toff_t) {}

// The first error libtiff reports, one line, for the message; returning 1
// keeps its process-wide handler (which prints to stderr) from running.
int on_error(TIFF*, void* user, const char*, const char* fmt, va_list ap) {
  auto& first = *static_cast<std::string*>(user);
  if (!first.empty()) return 1;
  char text[512];
  std::vsnprintf(text, sizeof text, fmt, ap);
  first = std::string(text).substr(0, std::string(text).find('\n'));
  return 1;
}

int on_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

}  // namespace

Bytes encode_tiff(const Image& img, const Metadata& metadata, std::vector<std::string>* notes) {
  GrowingFile file;
  std::string problem;
  const std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> opts(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
  if (!opts) throw std::bad_alloc();
  TIFFOpenOptionsSetErrorHandlerExtR(opts.get(), on_error, &problem);
  TIFFOpenOptionsSetWarningHandlerExtR(opts.get(), on_warning, nullptr);
  TiffExifWriter exif(metadata.exif);
  // "w8": BigTIFF where a classic file's 32-bit offsets could not reach.
  std::string mode = img.data.size() > (std::uint64_t{1} << 31) ? "w8" : "w";
  if (!exif.empty()) mode += exif.big_endian() ? 'b' : 'l';
  TIFF* raw = TIFFClientOpenExt("", mode.c_str(), &file, read_proc, write_proc, seek_proc, close_proc, size_proc, map_proc,
                                unmap_proc, opts.get());
  const auto failed = [&] { return CodecFailure("cannot encode TIFF (libtiff: " + problem + ")"); };
  if (!raw) throw failed();
  std::unique_ptr<TIFF, void (*)(TIFF*)> tif(raw, TIFFClose);
  if (!exif.write_directories(raw)) throw failed();
  const int bits = img.depth == Depth::U16 ? 16 : 8;
  const bool colour = img.channels >= 3;
  TIFFSetField(raw, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(img.width));
  TIFFSetField(raw, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(img.height));
  TIFFSetField(raw, TIFFTAG_BITSPERSAMPLE, bits);
  TIFFSetField(raw, TIFFTAG_SAMPLESPERPIXEL, img.channels);
  TIFFSetField(raw, TIFFTAG_PHOTOMETRIC, colour ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK);
  TIFFSetField(raw, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField(raw, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
  TIFFSetField(raw, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL);
  if (img.channels == 2 || img.channels == 4) {
    const std::uint16_t alpha[] = {EXTRASAMPLE_UNASSALPHA};
    TIFFSetField(raw, TIFFTAG_EXTRASAMPLES, 1, alpha);
  }
  // libtiff copies both: the bytes are written as given.
  if (!metadata.icc.empty())
    TIFFSetField(raw, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(metadata.icc.size()), metadata.icc.data());
  if (!metadata.xmp.empty())
    TIFFSetField(raw, TIFFTAG_XMLPACKET, static_cast<std::uint32_t>(metadata.xmp.size()), metadata.xmp.data());
  if (metadata.orientation != 1 || exif.holds_orientation())
    TIFFSetField(raw, TIFFTAG_ORIENTATION, static_cast<std::uint16_t>(metadata.orientation));
  if (metadata.resolution.given()) {
    const Resolution& r = metadata.resolution;
    TIFFSetField(raw, TIFFTAG_XRESOLUTION, r.x);
    TIFFSetField(raw, TIFFTAG_YRESOLUTION, r.y);
    TIFFSetField(raw, TIFFTAG_RESOLUTIONUNIT, r.unit == Resolution::Unit::inch       ? RESUNIT_INCH
                                              : r.unit == Resolution::Unit::centimetre ? RESUNIT_CENTIMETER
                                                                                       : RESUNIT_NONE);
  }
  exif.set_image_tags(raw);
  const std::uint32_t rows = TIFFDefaultStripSize(raw, 0);
  TIFFSetField(raw, TIFFTAG_ROWSPERSTRIP, rows);
  const std::size_t row_bytes = img.data.size() / static_cast<std::size_t>(img.height);
  // TIFFWriteEncodedStrip applies the predictor in place: each strip goes through a copy.
  Bytes strip;
  for (std::uint32_t y = 0, s = 0; y < static_cast<std::uint32_t>(img.height); y += rows, ++s) {
    const std::uint32_t n = std::min<std::uint32_t>(rows, static_cast<std::uint32_t>(img.height) - y);
    const auto* from = img.data.data() + y * row_bytes;
    strip.assign(from, from + n * row_bytes);
    if (TIFFWriteEncodedStrip(raw, s, strip.data(), static_cast<tmsize_t>(strip.size())) < 0) throw failed();
  }
  if (!TIFFWriteDirectory(raw)) throw failed();
  TIFFClose(tif.release());  // it may still write: before the bytes are taken
  if (!problem.empty()) throw failed();
  exif.patch(file.bytes);
  const std::string note = exif.note();
  if (notes && !note.empty()) notes->push_back(note);
  return std::move(file.bytes);
}

}  // namespace gpuimg
