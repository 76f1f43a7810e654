#pragma once
// Image dimensions read from file headers, so the pixel limit is enforced
// before a decoder allocates anything, and the JPEG structure check. Every
// read is bounds-checked: these run on untrusted bytes. GIF, TGA and PSD
// are left to stbi_info (see stb_codec.cpp), the only decoder that reads them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sniff.hpp"

namespace gpuimg {

struct Dims {
  std::uint64_t width;
  std::uint64_t height;
};

namespace detail {

using Bytes = std::vector<std::uint8_t>;

inline bool has(const Bytes& b, std::uint64_t offset, std::uint64_t len) {
  return offset <= b.size() && len <= b.size() - offset;
}

// Reads `len` (<= 8) bytes at `offset` as an unsigned integer.
inline std::uint64_t read_uint(const Bytes& b, std::uint64_t offset, int len, bool big_endian) {
  std::uint64_t v = 0;
  for (int i = 0; i < len; ++i) {
    const std::uint64_t byte = b[offset + (big_endian ? i : len - 1 - i)];
    v = v << 8 | byte;
  }
  return v;
}

inline std::optional<Dims> png_dims(const Bytes& b) {
  if (!has(b, 12, 12) || !starts_with(b, "IHDR", 12)) return std::nullopt;
  return Dims{read_uint(b, 16, 4, true), read_uint(b, 20, 4, true)};
}

// A BMP's width and height as its header gives them: BITMAPCOREHEADER's
// (12 bytes) unsigned 16-bit, every later header's signed 32-bit (a
// negative height means top-down rows).
struct BmpSides {
  std::int64_t width, height;
};
inline std::optional<BmpSides> bmp_sides(const Bytes& b) {
  if (!has(b, 14, 12)) return std::nullopt;
  const bool core = read_uint(b, 14, 4, false) == 12;
  const int field = core ? 2 : 4;
  const auto side = [&](std::size_t at) {
    const std::uint64_t v = read_uint(b, at, field, false);
    return core ? static_cast<std::int64_t>(v) : static_cast<std::int64_t>(static_cast<std::int32_t>(v));
  };
  return BmpSides{side(18), side(18 + field)};
}

inline std::optional<Dims> bmp_dims(const Bytes& b) {
  const std::optional<BmpSides> s = bmp_sides(b);
  if (!s || s->width <= 0 || s->height == 0) return std::nullopt;
  return Dims{static_cast<std::uint64_t>(s->width), static_cast<std::uint64_t>(s->height < 0 ? -s->height : s->height)};
}

// The first three numbers of a binary PNM's header (width, height,
// maximum), read as stb_image reads them (whitespace and '#' comments to the
// end of a line skipped before each; kPnmNoNumber where no digit stands,
// kPnmEnded where the file ends first), or
// nullopt where one is past 2^31 - 1: stb_image 2.27 gathers them in an
// int, which a longer number overflows (undefined behaviour) before it
// refuses the file. `samples_at`, where all three stand: where the samples
// begin, past the one byte after the maximum's digits that stb consumes.
constexpr std::uint64_t kPnmNoNumber = ~std::uint64_t{0}, kPnmEnded = kPnmNoNumber - 1;
inline std::optional<std::array<std::uint64_t, 3>> pnm_header_numbers(const Bytes& b,
                                                                       std::uint64_t* samples_at = nullptr) {
  std::array<std::uint64_t, 3> numbers{};
  std::size_t pos = 2;
  for (std::uint64_t& v : numbers) {
    for (;;) {
      while (pos < b.size() && (b[pos] == ' ' || (b[pos] >= '\t' && b[pos] <= '\r'))) ++pos;
      if (pos >= b.size() || b[pos] != '#') break;
      while (pos < b.size() && b[pos] != '\n' && b[pos] != '\r') ++pos;
    }
    if (pos >= b.size() || b[pos] < '0' || b[pos] > '9') {
      v = pos >= b.size() ? kPnmEnded : kPnmNoNumber;
      continue;
    }
    for (; pos < b.size() && b[pos] >= '0' && b[pos] <= '9'; ++pos) {
      v = v * 10 + (b[pos] - '0');
      if (v > 0x7fffffff) return std::nullopt;
    }
  }
  if (samples_at) *samples_at = pos + 1;
  return numbers;
}

// "P6 # comment\n 640 480 ..." : the two numbers after the magic, read as
// OpenCV's PxM decoder reads them (probe.cpp asks whether one is 0, and
// for P4 where its bits begin):
// whitespace and '#' comments before a number are skipped, and
// the byte after its last digit is consumed whatever it is, so in
// "4000#4000" the '#' starts no comment and the height is 4000.
// `height_end`: just past the height's terminator, where a P4's bits begin.
inline std::optional<Dims> pnm_dims(const Bytes& b, std::uint64_t* height_end = nullptr) {
  std::size_t pos = 2;
  auto next_number = [&]() -> std::optional<std::uint64_t> {
    while (pos < b.size() && (b[pos] == '#' || b[pos] == ' ' || (b[pos] >= '\t' && b[pos] <= '\r'))) {
      if (b[pos] == '#') {
        while (pos < b.size() && b[pos] != '\n' && b[pos] != '\r') ++pos;
      }
      ++pos;
    }
    const std::size_t start = pos;
    std::uint64_t v = 0;
    constexpr std::uint64_t saturated = std::uint64_t{1} << 40;  // over any pixel limit, far from overflow
    for (; pos < b.size() && b[pos] >= '0' && b[pos] <= '9'; ++pos) v = v >= saturated ? saturated : v * 10 + (b[pos] - '0');
    if (pos == start) return std::nullopt;
    ++pos;  // the terminator
    return v;
  };
  const auto width = next_number();
  const auto height = next_number();
  if (!width || !height) return std::nullopt;
  if (height_end) *height_end = pos;
  return Dims{*width, *height};
}

// A TIFF size tag's value as libtiff reads it (TIFFReadDirEntryLong): one
// value of any integer type, signed ones not negative, none past 2^32 - 1;
// nullopt where libtiff would refuse the directory. A value too wide for the
// entry's own field lies at the offset that field holds.
inline std::optional<std::uint64_t> tiff_size_value(const Bytes& b, std::uint64_t entry, bool big_endian, bool bigtiff) {
  const std::uint64_t type = read_uint(b, entry + 2, 2, big_endian);
  const std::uint64_t count = bigtiff ? read_uint(b, entry + 4, 8, big_endian) : read_uint(b, entry + 4, 4, big_endian);
  int len = 0;
  bool is_signed = false;
  switch (type) {
    case 1: len = 1; break;                      // BYTE
    case 6: len = 1; is_signed = true; break;    // SBYTE
    case 3: len = 2; break;                      // SHORT
    case 8: len = 2; is_signed = true; break;    // SSHORT
    case 4: len = 4; break;                      // LONG
    case 9: len = 4; is_signed = true; break;    // SLONG
    case 16: len = 8; break;                     // LONG8
    case 17: len = 8; is_signed = true; break;   // SLONG8
    default: return std::nullopt;
  }
  if (count != 1) return std::nullopt;
  const int field_len = bigtiff ? 8 : 4;
  std::uint64_t at = entry + (bigtiff ? 12 : 8);
  if (len > field_len) at = read_uint(b, at, field_len, big_endian);
  if (!has(b, at, len)) return std::nullopt;
  const std::uint64_t raw = read_uint(b, at, len, big_endian);
  if (is_signed && raw >> (8 * len - 1) & 1) return std::nullopt;  // negative
  if (raw > 0xffffffffu) return std::nullopt;
  return raw;
}

// The value of `tag` in the first IFD, classic TIFF (12-byte entries,
// 32-bit offsets) or BigTIFF (20-byte entries, 64-bit), as libtiff takes
// it: the first entry of a tag counts and later ones are ignored. `present` says whether there is one; nullopt where there is
// none or libtiff would refuse it.
inline std::optional<std::uint64_t> tiff_tag(const Bytes& b, std::uint64_t tag, bool* present = nullptr) {
  if (present) *present = false;
  if (!has(b, 0, 16)) return std::nullopt;
  const bool big_endian = b[0] == 'M';
  const bool bigtiff = read_uint(b, 2, 2, big_endian) == 43;
  const int count_len = bigtiff ? 8 : 2, entry_len = bigtiff ? 20 : 12;
  const std::uint64_t ifd = bigtiff ? read_uint(b, 8, 8, big_endian) : read_uint(b, 4, 4, big_endian);
  if (!has(b, ifd, count_len)) return std::nullopt;
  const std::uint64_t entries = read_uint(b, ifd, count_len, big_endian);
  for (std::uint64_t i = 0; i < entries; ++i) {
    const std::uint64_t entry = ifd + count_len + i * entry_len;
    if (!has(b, entry, entry_len)) return std::nullopt;
    if (read_uint(b, entry, 2, big_endian) != tag) continue;
    if (present) *present = true;
    return tiff_size_value(b, entry, big_endian, bigtiff);
  }
  return std::nullopt;
}

// ImageWidth (256) and ImageLength (257).
inline std::optional<Dims> tiff_dims(const Bytes& b) {
  const std::optional<std::uint64_t> width = tiff_tag(b, 256), height = tiff_tag(b, 257);
  if (!width || !height || *width == 0 || *height == 0) return std::nullopt;
  return Dims{*width, *height};
}

// The block a TIFF is decoded in, through a buffer of its own beside the
// image, at most: a tile (TileWidth 322, TileLength 323), or a strip of
// RowsPerStrip (278) rows of the whole width, where none, 0 or 2^32 - 1
// rows mean the whole height (libtiff holds a strip to the image's height;
// OpenCV, which decoded TIFF before, did not).
inline Dims tiff_block_dims(const Bytes& b, Dims image) {
  bool tiled = false;
  const std::optional<std::uint64_t> tile_width = tiff_tag(b, 322, &tiled), tile_height = tiff_tag(b, 323);
  std::optional<std::uint64_t> rows = tiled ? tile_height : tiff_tag(b, 278);
  const std::uint64_t width = tiled && tile_width && *tile_width != 0 ? *tile_width : image.width;
  const bool whole = !rows || *rows == 0 || (!tiled && *rows == 0xffffffffu);
  return Dims{width, whole ? image.height : *rows};
}

// The first chunk after "RIFF....WEBP" is VP8 (lossy), VP8L (lossless) or
// VP8X (extended, holding the canvas size); each stores the size its own way.
inline std::optional<Dims> webp_dims(const Bytes& b) {
  if (!has(b, 0, 30)) return std::nullopt;
  if (starts_with(b, "VP8 ", 12) && b[23] == 0x9d && b[24] == 0x01 && b[25] == 0x2a) {
    return Dims{read_uint(b, 26, 2, false) & 0x3fff, read_uint(b, 28, 2, false) & 0x3fff};
  }
  if (starts_with(b, "VP8L", 12) && b[20] == 0x2f) {
    const std::uint64_t bits = read_uint(b, 21, 4, false);
    return Dims{(bits & 0x3fff) + 1, (bits >> 14 & 0x3fff) + 1};
  }
  if (starts_with(b, "VP8X", 12)) return Dims{read_uint(b, 24, 3, false) + 1, read_uint(b, 27, 3, false) + 1};
  return std::nullopt;
}

}  // namespace detail

// What a walk over a JPEG's markers found.
struct JpegLayout {
  enum class Status { complete, truncated, malformed } status;
  std::optional<Dims> dims;  // from the SOF segment; absent when its height is 0 (set later by DNL)
  int components = 0;        // from the SOF segment: 1 gray, 3 YCbCr or RGB, 4 CMYK or YCCK
  bool arithmetic = false;   // SOF9 to SOF15: arithmetic coding, which has no least bits a block
  std::uint64_t scans = 0;   // SOS segments
  std::string problem;       // for malformed
};

// Walks every marker segment by its length (so bytes inside an Exif
// thumbnail are never taken for markers) and skips entropy-coded data to
// the next marker, until EOI. Entropy-coded data cannot contain FF D9, so
// a file ending before one was cut short: libjpeg would only warn and fill
// the rest with gray. Also refused, with their position, before libjpeg
// allocates anything: bytes where a marker must be. Damage inside
// entropy-coded data only decoding can find (jpeg_codec.cpp).
inline JpegLayout inspect_jpeg(const std::vector<std::uint8_t>& b) {
  using Status = JpegLayout::Status;
  JpegLayout out{Status::truncated, std::nullopt, 0, false, 0, ""};
  auto malformed = [&](std::string problem) {
    out.status = Status::malformed;
    out.problem = std::move(problem);
    return out;
  };
  const std::size_t n = b.size();
  bool scanned = false, sof_seen = false, progressive = false;
  std::set<int> frame_ids, scanned_ids;
  std::size_t pos = 2;
  for (;;) {
    if (pos >= n) return out;
    if (b[pos] != 0xff) return malformed("no marker where one must be, at byte " + std::to_string(pos));
    while (pos < n && b[pos] == 0xff) ++pos;  // fill bytes
    if (pos >= n) return out;
    const std::size_t marker_at = pos - 1;
    const int marker = b[pos++];
    // FF 02 to FF BF are reserved: libjpeg refuses them as unknown markers.
    if (marker >= 0x02 && marker <= 0xbf) {
      char name[8];
      std::snprintf(name, sizeof name, "FF%02X", static_cast<unsigned>(marker));
      return malformed(std::string("reserved marker ") + name + " at byte " + std::to_string(marker_at));
    }
    const bool standalone = marker == 0x01 || (marker >= 0xd0 && marker <= 0xd8);  // TEM, RSTn, SOI
    if (standalone) continue;
    if (marker == 0xd9) {
      if (!scanned) return malformed("end-of-image marker before any scan");
      // libjpeg fills a component no scan gave values with mid-gray and
      // says nothing.
      for (const int id : frame_ids)
        if (!scanned_ids.count(id)) return malformed("component " + std::to_string(id) + " is in no scan that gives its values");
      out.status = Status::complete;
      return out;
    }
    if (marker == 0x00) return malformed("stuffed zero outside entropy-coded data, at byte " + std::to_string(pos - 1));
    if (!detail::has(b, pos, 2)) return out;
    const std::size_t len = detail::read_uint(b, pos, 2, true);
    if (len < 2) return malformed("segment length below 2, at byte " + std::to_string(pos));
    // Past a scan, in a file that still ends with its end-of-image marker,
    // the segment is a stray FF in the scan's data or its length is wrong:
    // the file was not cut short. (Before any scan, a file cut where an
    // Exif thumbnail ends would end so too.)
    if (!detail::has(b, pos, len))
      return scanned && n >= 2 && b[n - 2] == 0xff && b[n - 1] == 0xd9
                 ? malformed("a segment at byte " + std::to_string(marker_at) + " runs past the end of the file")
                 : out;
    const bool sof = marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
    // libjpeg sizes the image from the first SOF (a second is an error,
    // found after the image is allocated when it follows a scan).
    if (sof && !sof_seen && len >= 7) {
      sof_seen = true;
      progressive = marker == 0xc2 || marker == 0xc6 || marker == 0xca || marker == 0xce;
      for (std::size_t i = 0; len >= 8 + 3 * i + 3 && i < b[pos + 7]; ++i) frame_ids.insert(b[pos + 8 + 3 * i]);
      const Dims d{detail::read_uint(b, pos + 5, 2, true), detail::read_uint(b, pos + 3, 2, true)};
      if (d.height != 0) out.dims = d;
      if (len >= 8) out.components = b[pos + 7];
      out.arithmetic = marker >= 0xc9;
    }
    pos += len;
    if (marker != 0xda) continue;
    scanned = true;
    ++out.scans;
    // Components named by the scan; in a progressive file only a DC scan
    // (spectral start 0) gives a component its values.
    if (len >= 3) {
      const std::size_t seg = pos - len, count = b[seg + 2];
      const std::size_t ss_at = seg + 3 + 2 * count;
      const bool gives_values = !progressive || (ss_at < pos && b[ss_at] == 0);
      for (std::size_t i = 0; i < count && seg + 3 + 2 * i < pos && gives_values; ++i) scanned_ids.insert(b[seg + 3 + 2 * i]);
    }
    // Entropy-coded data runs to the first FF not followed by a stuffed 00,
    // a restart marker or another fill FF.
    for (;;) {
      const void* ff = std::memchr(b.data() + pos, 0xff, n - pos);
      if (!ff) return out;
      pos = static_cast<std::size_t>(static_cast<const std::uint8_t*>(ff) - b.data());
      if (pos + 1 >= n) return out;
      const int next = b[pos + 1];
      if (next == 0xff) {
        ++pos;
      } else if (next == 0x00 || (next >= 0xd0 && next <= 0xd7)) {
        pos += 2;
      } else {
        break;
      }
    }
  }
}

inline std::optional<Dims> header_dims(Format f, const std::vector<std::uint8_t>& b) {
  switch (f) {
    case Format::png: return detail::png_dims(b);
    case Format::tiff: return detail::tiff_dims(b);
    case Format::webp: return detail::webp_dims(b);
    case Format::bmp: return detail::bmp_dims(b);
    case Format::pnm: return detail::pnm_dims(b);
    case Format::jpeg:  // inspect_jpeg() reads it, along with the structure check
    case Format::tga:
    case Format::psd:
    case Format::gif:
    case Format::radiance_hdr: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace gpuimg
