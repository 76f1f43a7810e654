#pragma once
// TIFFs written by libtiff itself, in memory, in the layouts and
// compressions gpuimg's own writer (OpenCV's) never produces: separate
// planes, tiles, palettes, 1 to 4-bit gray, JPEG. And the one change a
// hostile file needs: a strip or tile whose stored bytes are cut short,
// the data left where it is.
#include <tiffio.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "crafted_files.hpp"
#include "image.hpp"

namespace gpuimg::test {

struct TiffSpec {
  std::uint32_t width = 0, height = 0;
  std::uint16_t bits = 8, samples = 1;
  std::uint16_t sample_format = SAMPLEFORMAT_UINT;
  std::uint16_t photometric = PHOTOMETRIC_MINISBLACK;
  std::uint16_t compression = COMPRESSION_NONE;
  bool planar = false;
  std::uint32_t tile = 0;                        // the side of square tiles (a multiple of 16); 0 for strips
  std::uint32_t rows_per_strip = 0;              // 0: libtiff's choice
  std::uint16_t alpha = EXTRASAMPLE_UNASSALPHA;  // what ExtraSamples says of a sample past the colour's
  std::vector<std::uint16_t> colormap;           // palette: every red entry, then green, then blue
  // JPEG: YCbCr in the file, given and read back as RGB. Off: stored as
  // the photometric says.
  bool jpeg_ycbcr = false;
  std::uint16_t orientation = 0;  // 0: no Orientation tag
  Bytes icc;                      // ICCProfile, where not empty
  std::string xmp;                // XMLPacket, where not empty
};

namespace detail {

struct MemoryTiff {
  Bytes bytes;
  std::uint64_t pos = 0;
};

inline MemoryTiff& memory(thandle_t h) { return *static_cast<MemoryTiff*>(h); }

inline tmsize_t tiff_read(thandle_t h, void* buf, tmsize_t n) {
  MemoryTiff& m = memory(h);
  const std::uint64_t count = std::min<std::uint64_t>(n, m.pos < m.bytes.size() ? m.bytes.size() - m.pos : 0);
  std::memcpy(buf, m.bytes.data() + m.pos, count);
  m.pos += count;
  return static_cast<tmsize_t>(count);
}

inline tmsize_t tiff_write(thandle_t h, void* buf, tmsize_t n) {
  MemoryTiff& m = memory(h);
  if (m.bytes.size() < m.pos + n) m.bytes.resize(m.pos + n);
  std::memcpy(m.bytes.data() + m.pos, buf, static_cast<std::size_t>(n));
  m.pos += n;
  return n;
}

inline toff_t tiff_seek(thandle_t h, toff_t offset, int whence) {
  MemoryTiff& m = memory(h);
  m.pos = (whence == SEEK_CUR ? m.pos : whence == SEEK_END ? m.bytes.size() : 0) + offset;
  return m.pos;
}

inline int tiff_close(thandle_t) { return 0; }
inline toff_t tiff_size(thandle_t h) { return memory(h).bytes.size(); }

inline std::uint64_t row_bytes(const TiffSpec& s) {
  return (std::uint64_t{s.width} * (s.planar ? 1 : s.samples) * s.bits + 7) / 8;
}

}  // namespace detail

// One page of `spec`, from `planes`: one (interleaved samples) or, for
// separate planes, one a sample; each the image's rows, packed as TIFF
// stores them, 16-bit samples in host order.
struct TiffPage {
  TiffSpec spec;
  std::vector<Bytes> planes;
};

inline bool write_page(TIFF* tif, const TiffSpec& spec, const std::vector<Bytes>& planes) {
  TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, spec.width);
  TIFFSetField(tif, TIFFTAG_IMAGELENGTH, spec.height);
  TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, spec.bits);
  TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, spec.samples);
  TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, spec.sample_format);
  TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, spec.jpeg_ycbcr ? PHOTOMETRIC_YCBCR : spec.photometric);
  TIFFSetField(tif, TIFFTAG_PLANARCONFIG, spec.planar ? PLANARCONFIG_SEPARATE : PLANARCONFIG_CONTIG);
  TIFFSetField(tif, TIFFTAG_COMPRESSION, spec.compression);
  if (spec.jpeg_ycbcr) TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
  if (spec.orientation) TIFFSetField(tif, TIFFTAG_ORIENTATION, spec.orientation);
  if (!spec.icc.empty()) TIFFSetField(tif, TIFFTAG_ICCPROFILE, static_cast<std::uint32_t>(spec.icc.size()), spec.icc.data());
  if (!spec.xmp.empty()) TIFFSetField(tif, TIFFTAG_XMLPACKET, static_cast<std::uint32_t>(spec.xmp.size()), spec.xmp.data());
  // Uncompressed YCbCr, only to be refused: unsubsampled, so libtiff writes it row by row.
  if (spec.photometric == PHOTOMETRIC_YCBCR) TIFFSetField(tif, TIFFTAG_YCBCRSUBSAMPLING, 1, 1);
  const int colour_samples = spec.photometric == PHOTOMETRIC_RGB ? 3 : 1;
  if (spec.samples > colour_samples) {
    const std::uint16_t extra = spec.alpha;
    TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
  }
  if (!spec.colormap.empty()) {
    const std::size_t n = spec.colormap.size() / 3;
    TIFFSetField(tif, TIFFTAG_COLORMAP, spec.colormap.data(), spec.colormap.data() + n, spec.colormap.data() + 2 * n);
  }
  if (spec.tile) {
    TIFFSetField(tif, TIFFTAG_TILEWIDTH, spec.tile);
    TIFFSetField(tif, TIFFTAG_TILELENGTH, spec.tile);
  } else {
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, spec.rows_per_strip ? spec.rows_per_strip : TIFFDefaultStripSize(tif, 0));
  }
  const std::uint64_t row = detail::row_bytes(spec);
  bool ok = true;
  for (std::size_t p = 0; p < planes.size(); ++p) {
    const auto sample = static_cast<std::uint16_t>(p);
    if (!spec.tile) {
      for (std::uint32_t y = 0; y < spec.height; ++y) {
        Bytes line(planes[p].begin() + y * row, planes[p].begin() + (y + 1) * row);  // libtiff may encode in place
        ok = ok && TIFFWriteScanline(tif, line.data(), y, sample) == 1;
      }
      continue;
    }
    const std::uint64_t tile_row = (std::uint64_t{spec.tile} * (spec.planar ? 1 : spec.samples) * spec.bits + 7) / 8;
    for (std::uint32_t ty = 0; ty < spec.height; ty += spec.tile) {
      for (std::uint32_t tx = 0; tx < spec.width; tx += spec.tile) {
        Bytes tile(tile_row * spec.tile, 0);
        const std::uint64_t skip = std::uint64_t{tx} * (spec.planar ? 1 : spec.samples) * spec.bits / 8;  // tx: a multiple of 16
        for (std::uint32_t y = ty; y < std::min(ty + spec.tile, spec.height); ++y) {
          const std::uint64_t take = std::min(tile_row, row - skip);
          std::copy_n(planes[p].begin() + y * row + skip, take, tile.begin() + (y - ty) * tile_row);
        }
        ok = ok && TIFFWriteTile(tif, tile.data(), tx, ty, 0, sample) >= 0;
      }
    }
  }
  return ok && TIFFWriteDirectory(tif);
}

// A TIFF of these pages, in this order; little-endian unless `mode` says
// otherwise (libtiff's: "wb" big-endian, "w8" BigTIFF).
inline Bytes tiff_bytes(const std::vector<TiffPage>& pages, const char* mode = "wl") {
  detail::MemoryTiff out;
  TIFF* tif = TIFFClientOpen("test", mode, &out, detail::tiff_read, detail::tiff_write, detail::tiff_seek, detail::tiff_close,
                             detail::tiff_size, nullptr, nullptr);
  if (!tif) throw std::runtime_error("libtiff could not start a file");
  bool ok = true;
  for (const TiffPage& page : pages) ok = ok && write_page(tif, page.spec, page.planes);
  TIFFClose(tif);
  if (!ok) throw std::runtime_error("libtiff could not write the test file");
  return out.bytes;
}

inline Bytes tiff_bytes(const TiffSpec& spec, const std::vector<Bytes>& planes) { return tiff_bytes({{spec, planes}}); }

// The rows of `img` as tiff_bytes takes them.
inline std::vector<Bytes> tiff_planes(const Image& img, bool planar) {
  if (!planar) return {img.data};
  const int size = bytes_per_sample(img.depth);
  std::vector<Bytes> planes(img.channels);
  for (int c = 0; c < img.channels; ++c)
    for (std::size_t px = 0; px < img.pixel_count(); ++px) {
      const std::uint8_t* at = img.data.data() + (px * img.channels + c) * size;
      planes[c].insert(planes[c].end(), at, at + size);
    }
  return planes;
}

// Where the value of the first IFD's `tag` entry, holding strip or tile
// `index`, lies in a classic little-endian TIFF; and its width, 2 or 4.
inline std::pair<std::size_t, int> tiff_array_entry(const Bytes& tiff, std::uint16_t tag, std::uint32_t index) {
  auto le = [&](std::size_t at, int len) {
    std::uint32_t v = 0;
    for (int i = len - 1; i >= 0; --i) v = v << 8 | tiff.at(at + i);
    return v;
  };
  const std::size_t ifd = le(4, 4);
  for (std::size_t i = 0, n = le(ifd, 2); i < n; ++i) {
    const std::size_t entry = ifd + 2 + 12 * i;
    if (le(entry, 2) != tag) continue;
    const int len = le(entry + 2, 2) == 3 ? 2 : 4;
    const std::uint32_t count = le(entry + 4, 4);
    const std::size_t values = count * len <= 4 ? entry + 8 : le(entry + 8, 4);
    return {values + index * static_cast<std::size_t>(len), len};
  }
  throw std::runtime_error("no such tag in the test file");
}

// Value `index` of the first IFD's `tag`.
inline std::uint32_t tiff_value(const Bytes& tiff, std::uint16_t tag, std::uint32_t index) {
  const auto [at, len] = tiff_array_entry(tiff, tag, index);
  std::uint32_t v = 0;
  for (int i = len - 1; i >= 0; --i) v = v << 8 | tiff[at + i];
  return v;
}

// The same file with that value changed, everything else where it lies:
// StripByteCounts lowered cuts a strip's data short.
inline Bytes with_tiff_value(Bytes tiff, std::uint16_t tag, std::uint32_t index, std::uint32_t value) {
  const auto [at, len] = tiff_array_entry(tiff, tag, index);
  for (int i = 0; i < len; ++i) tiff[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
  return tiff;
}

}  // namespace gpuimg::test
