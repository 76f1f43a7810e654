#pragma once
// Image files built byte by byte, for the tests that need a header saying
// one thing and the data another: whole files, files cut short, and files
// a hostile user would craft.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace gpuimg::test {

using Bytes = std::vector<std::uint8_t>;

inline Bytes load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void save(const std::string& path, const Bytes& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
  }
  return ~c;
}

// `bytes` bytes of `v`, most significant first, or least first.
inline void put_be(Bytes& b, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_le(Bytes& b, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_be32(Bytes& b, std::uint32_t v) { put_be(b, v, 4); }

// A PNG chunk whose length field says `claimed` (the data's own length
// unless given), with its CRC.
inline void put_png_chunk(Bytes& b, const std::string& type, const Bytes& data, std::int64_t claimed = -1) {
  put_be32(b, static_cast<std::uint32_t>(claimed < 0 ? static_cast<std::int64_t>(data.size()) : claimed));
  const std::size_t type_at = b.size();
  b.insert(b.end(), type.begin(), type.end());
  b.insert(b.end(), data.begin(), data.end());
  put_be32(b, crc32(b.data() + type_at, b.size() - type_at));
}

// Signature and a valid IHDR (CRC included) and nothing else.
inline Bytes png_header(std::uint32_t width, std::uint32_t height, std::uint8_t bit_depth = 8, std::uint8_t colour_type = 6) {
  Bytes b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr;
  put_be32(ihdr, width);
  put_be32(ihdr, height);
  for (std::uint8_t v : {bit_depth, colour_type, std::uint8_t{0}, std::uint8_t{0}, std::uint8_t{0}}) ihdr.push_back(v);
  put_png_chunk(b, "IHDR", ihdr);
  return b;
}

// Offset of the first marker segment `marker` (FF xx) found by walking a
// JPEG's segments from SOI; the file's size when there is none before the
// first scan (SOS itself is found).
inline std::size_t find_segment(const Bytes& jpg, int marker) {
  for (std::size_t at = 2; at + 4 <= jpg.size() && jpg[at] == 0xff;) {
    if (jpg[at + 1] == marker) return at;
    if (jpg[at + 1] == 0xda) break;
    at += 2 + (std::size_t{jpg[at + 2]} << 8 | jpg[at + 3]);
  }
  return jpg.size();
}

// Offset of a baseline JPEG's first byte of scan data, past the SOS
// segment; the file's size when it has no scan.
inline std::size_t scan_data_at(const Bytes& jpg) {
  const std::size_t sos = find_segment(jpg, 0xda);
  return sos + 4 > jpg.size() ? jpg.size() : sos + 2 + (std::size_t{jpg[sos + 2]} << 8 | jpg[sos + 3]);
}

// A PSD's header and three empty sections, in colour mode `mode` (1 gray,
// 3 RGB, 4 CMYK, ...).
inline Bytes psd_header(int w, int h, int channels, int bits, int mode = 3) {
  Bytes b = {'8', 'B', 'P', 'S', 0, 1, 0, 0, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(channels)};
  put_be(b, static_cast<std::uint64_t>(h), 4);
  put_be(b, static_cast<std::uint64_t>(w), 4);
  put_be(b, static_cast<std::uint64_t>(bits), 2);
  put_be(b, static_cast<std::uint64_t>(mode), 2);
  put_be(b, 0, 4);  // colour mode data, image resources, layers: all empty
  put_be(b, 0, 4);
  put_be(b, 0, 4);
  return b;
}

// An uncompressed PSD: header, three empty sections, then planar channels.
inline Bytes psd_file(int w, int h, int channels, int bits, const std::vector<std::uint16_t>& planar, int mode = 3) {
  Bytes b = psd_header(w, h, channels, bits, mode);
  put_be(b, 0, 2);  // raw
  for (std::uint16_t v : planar) put_be(b, v, bits / 8);
  return b;
}

// A PackBits PSD of 8-bit samples: `rows` holds every plane's rows already
// compressed, plane after plane.
inline Bytes psd_packbits_file(int w, int h, int channels, const std::vector<Bytes>& rows, int mode = 3) {
  Bytes b = psd_header(w, h, channels, 8, mode);
  put_be(b, 1, 2);
  for (const Bytes& row : rows) put_be(b, row.size(), 2);
  for (const Bytes& row : rows) b.insert(b.end(), row.begin(), row.end());
  return b;
}

// One classic little-endian TIFF IFD entry: tag, type, count 1, value
// (inline: every type used here fits in four bytes).
struct TiffEntry {
  std::uint16_t tag;
  std::uint16_t type;  // 1 BYTE, 3 SHORT, 4 LONG, 8 SSHORT, 9 SLONG
  std::uint32_t value;
};

// A little-endian TIFF: header, `entries` as the first IFD (in the order
// given: duplicates stay), then `data` (which StripOffsets may point at:
// it starts at data_offset(entries.size())).
inline std::uint32_t tiff_data_offset(std::size_t entries) { return static_cast<std::uint32_t>(8 + 2 + 12 * entries + 4); }
inline Bytes tiff_file(const std::vector<TiffEntry>& entries, const Bytes& data = {}) {
  Bytes b = {'I', 'I', 42, 0};
  put_le(b, 8, 4);
  put_le(b, entries.size(), 2);
  for (const TiffEntry& e : entries) {
    put_le(b, e.tag, 2);
    put_le(b, e.type, 2);
    put_le(b, 1, 4);
    const int len = e.type == 1 ? 1 : e.type == 3 || e.type == 8 ? 2 : 4;
    put_le(b, e.value, len);
    for (int i = len; i < 4; ++i) b.push_back(0);
  }
  put_le(b, 0, 4);  // no next IFD
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

// An 8-bit gray uncompressed TIFF of `w` x `h` holding `pixels`, its size
// tags written `size_entries` (so a test can add duplicates or change
// types), the other tags after them.
inline Bytes gray_tiff(const std::vector<TiffEntry>& size_entries, std::uint32_t w, std::uint32_t h, const Bytes& pixels) {
  std::vector<TiffEntry> entries = size_entries;
  const std::vector<TiffEntry> rest = {{258, 3, 8}, {259, 3, 1}, {262, 3, 1}, {273, 4, 0}, {277, 3, 1},
                                       {278, 4, h}, {279, 4, w * h}};
  entries.insert(entries.end(), rest.begin(), rest.end());
  for (TiffEntry& e : entries)
    if (e.tag == 273) e.value = tiff_data_offset(entries.size());
  return tiff_file(entries, pixels);
}


// A GIF's LZW data as stb_image reads it: a clear code, one literal code
// per index (never a string: the table a decoder builds is only counted, so
// the widths below follow its growth), an end code where `end_code`, then
// the data sub-blocks and their terminator. A clear code restarts the table
// before it fills.
inline Bytes gif_lzw(const Bytes& indices, int min_code_size, bool end_code = true) {
  const int clear = 1 << min_code_size;
  int size = min_code_size + 1, avail = clear + 2;
  bool after_clear = true;
  std::uint32_t bits = 0;
  int held = 0;
  Bytes packed;
  const auto put = [&](int code) {
    bits |= static_cast<std::uint32_t>(code) << held;
    for (held += size; held >= 8; held -= 8, bits >>= 8) packed.push_back(static_cast<std::uint8_t>(bits));
  };
  put(clear);
  for (const std::uint8_t index : indices) {
    put(index);
    if (!after_clear) ++avail;
    if ((avail & ((1 << size) - 1)) == 0 && avail <= 0xfff) ++size;
    after_clear = false;
    if (avail >= 4000) {
      put(clear);
      size = min_code_size + 1;
      avail = clear + 2;
      after_clear = true;
    }
  }
  if (end_code) put(clear + 1);
  if (held > 0) packed.push_back(static_cast<std::uint8_t>(bits));
  Bytes b = {static_cast<std::uint8_t>(min_code_size)};
  for (std::size_t at = 0; at < packed.size(); at += 255) {
    const std::size_t n = std::min<std::size_t>(255, packed.size() - at);
    b.push_back(static_cast<std::uint8_t>(n));
    const auto from = packed.begin() + static_cast<std::ptrdiff_t>(at);
    b.insert(b.end(), from, from + static_cast<std::ptrdiff_t>(n));
  }
  b.push_back(0);
  return b;
}

// A GIF89a's one frame: where it lies on the screen, and its LZW data.
struct GifFrame {
  std::uint16_t left, top, width, height;
  Bytes lzw;
  bool interlaced = false;
};

// The four colours of gif_file's global colour table, RGBA as decoded.
inline const std::vector<Bytes> kGifColours = {{0, 0, 0, 255}, {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}};

// A GIF89a of a `screen_w` x `screen_h` screen whose background is colour
// `background` of its global table (kGifColours), holding `frame`.
inline Bytes gif_file(std::uint16_t screen_w, std::uint16_t screen_h, std::uint8_t background, const GifFrame& frame) {
  Bytes b = {'G', 'I', 'F', '8', '9', 'a'};
  put_le(b, screen_w, 2);
  put_le(b, screen_h, 2);
  b.insert(b.end(), {0x81, background, 0});  // a global table of 4 entries
  for (const Bytes& c : kGifColours) b.insert(b.end(), c.begin(), c.begin() + 3);
  b.push_back(0x2c);
  for (const std::uint16_t v : {frame.left, frame.top, frame.width, frame.height}) put_le(b, v, 2);
  b.push_back(frame.interlaced ? 0x40 : 0);
  b.insert(b.end(), frame.lzw.begin(), frame.lzw.end());
  b.push_back(0x3b);
  return b;
}

// A GIF89a of a `screen_w` x `screen_h` screen whose background is colour
// 0, holding `frames` in order; no graphic control extension, so each frame
// is drawn over the one before.
inline Bytes animated_gif(std::uint16_t screen_w, std::uint16_t screen_h, const std::vector<GifFrame>& frames) {
  Bytes b = gif_file(screen_w, screen_h, 0, frames[0]);
  b.pop_back();  // the trailer
  for (std::size_t k = 1; k < frames.size(); ++k) {
    const GifFrame& f = frames[k];
    b.push_back(0x2c);
    for (const std::uint16_t v : {f.left, f.top, f.width, f.height}) put_le(b, v, 2);
    b.push_back(f.interlaced ? 0x40 : 0);
    b.insert(b.end(), f.lzw.begin(), f.lzw.end());
  }
  b.push_back(0x3b);
  return b;
}

// A colour-mapped TGA of 8-bit indices, top row first: `colour_map` holds
// its entries as 24-bit BGR, `data` the indices, raw (type 1) or, with
// `rle`, already in run-length packets (type 9).
inline Bytes tga_mapped(std::uint16_t w, std::uint16_t h, const Bytes& colour_map, const Bytes& data,
                        bool rle = false) {
  Bytes b = {0, 1, static_cast<std::uint8_t>(rle ? 9 : 1), 0, 0};
  put_le(b, colour_map.size() / 3, 2);
  b.insert(b.end(), {24, 0, 0, 0, 0});
  put_le(b, w, 2);
  put_le(b, h, 2);
  b.insert(b.end(), {8, 0x20});
  b.insert(b.end(), colour_map.begin(), colour_map.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

// A BMP (BITMAPINFOHEADER) of `bpp` 1, 4 or 8 bits a pixel whose palette,
// given as BGR0 quads, is all that biClrUsed counts. `data` is the pixel
// data as stored, bottom row first: rows padded to 4 bytes, or RLE8
// (compression 1) or RLE4 (2) packets.
inline Bytes bmp_indexed(std::int32_t w, std::int32_t h, int bpp, const Bytes& palette, const Bytes& data,
                         int compression = 0) {
  const std::size_t offset = 14 + 40 + palette.size();
  Bytes b = {'B', 'M'};
  put_le(b, offset + data.size(), 4);
  put_le(b, 0, 4);
  put_le(b, offset, 4);
  put_le(b, 40, 4);
  put_le(b, static_cast<std::uint32_t>(w), 4);
  put_le(b, static_cast<std::uint32_t>(h), 4);
  put_le(b, 1, 2);
  put_le(b, static_cast<std::uint64_t>(bpp), 2);
  put_le(b, static_cast<std::uint64_t>(compression), 4);
  put_le(b, data.size(), 4);
  put_le(b, 0, 8);  // resolution
  put_le(b, palette.size() / 4, 4);
  put_le(b, 0, 4);
  b.insert(b.end(), palette.begin(), palette.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

// `indices` (`w` a row, top row first) packed as an uncompressed BMP
// stores them at `bpp` bits: bottom row first, the leftmost pixel in the
// high bits, each row padded to 4 bytes.
inline Bytes bmp_rows(const Bytes& indices, std::size_t w, int bpp) {
  const std::size_t row_bytes = (w * static_cast<std::size_t>(bpp) + 31) / 32 * 4;
  Bytes b;
  for (std::size_t row = indices.size() / w; row-- > 0;) {
    Bytes packed(row_bytes, 0);
    for (std::size_t x = 0; x < w; ++x) {
      const std::size_t bit = x * static_cast<std::size_t>(bpp);
      packed[bit / 8] |= static_cast<std::uint8_t>(indices[row * w + x] << (8 - bpp - bit % 8));
    }
    b.insert(b.end(), packed.begin(), packed.end());
  }
  return b;
}

// A side x side 8-bit gray TIFF in one strip of `stored` zero bytes,
// compressed as `compression` says (259's values: 8 Deflate, 32773 PackBits).
inline Bytes tiff_claiming(std::uint32_t side, std::uint32_t compression, std::uint32_t stored) {
  std::vector<TiffEntry> entries = {{256, 4, side}, {257, 4, side}, {258, 3, 8},    {259, 3, compression}, {262, 3, 1},
                                    {273, 4, 0},    {277, 3, 1},    {278, 4, side}, {279, 4, stored}};
  entries[5].value = tiff_data_offset(entries.size());
  return tiff_file(entries, Bytes(stored, 0));
}

}  // namespace gpuimg::test
