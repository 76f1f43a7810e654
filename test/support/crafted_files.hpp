#pragma once
// Image files built byte by byte, for the tests that need a header saying
// one thing and the data another: whole files, files cut short, and files
// a hostile user would craft.
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

// A side x side 8-bit gray TIFF in one strip of `stored` zero bytes,
// compressed as `compression` says (259's values: 8 Deflate, 32773 PackBits).
inline Bytes tiff_claiming(std::uint32_t side, std::uint32_t compression, std::uint32_t stored) {
  std::vector<TiffEntry> entries = {{256, 4, side}, {257, 4, side}, {258, 3, 8},    {259, 3, compression}, {262, 3, 1},
                                    {273, 4, 0},    {277, 3, 1},    {278, 4, side}, {279, 4, stored}};
  entries[5].value = tiff_data_offset(entries.size());
  return tiff_file(entries, Bytes(stored, 0));
}

}  // namespace gpuimg::test
