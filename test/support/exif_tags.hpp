#pragma once
// EXIF blocks made by libexif in the test, tag by tag, as a camera's
// software would make them; the values libexif reads back out of a block;
// and the entries of a classic TIFF's IFD, walked here, so that what
// gpuimg wrote into a TIFF is checked by neither its own reader nor its
// writer's.
#include <libexif/exif-data.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "metadata_files.hpp"

namespace gpuimg::test {

struct TagSpec {
  ExifIfd ifd;
  std::uint16_t tag;
  ExifFormat format;
  std::uint32_t count;
  std::vector<std::int64_t> values;  // integers, or numerator and denominator pairs for rationals
  std::string bytes = {};            // ASCII (its NUL added) and UNDEFINED: the bytes themselves
};

// The block libexif saves of `tags` (each IFD's in the order given) and,
// where not empty, a thumbnail; no JPEG APP1 header.
inline Bytes libexif_block(const std::vector<TagSpec>& tags, bool big_endian, const Bytes& thumbnail = {}) {
  ExifData* d = exif_data_new();
  exif_data_unset_option(d, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
  const ExifByteOrder order = big_endian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL;
  exif_data_set_byte_order(d, order);
  for (const TagSpec& t : tags) {
    ExifEntry* e = exif_entry_new();
    e->tag = static_cast<::ExifTag>(t.tag);
    e->format = t.format;
    e->components = t.count;
    e->size = exif_format_get_size(t.format) * t.count;
    e->data = static_cast<unsigned char*>(std::calloc(e->size, 1));
    for (std::size_t i = 0; i < t.bytes.size() && i < e->size; ++i) e->data[i] = static_cast<unsigned char>(t.bytes[i]);
    for (std::uint32_t i = 0; i < t.count && !t.values.empty(); ++i) {
      unsigned char* at = e->data + i * exif_format_get_size(t.format);
      switch (t.format) {
        case EXIF_FORMAT_BYTE: *at = static_cast<unsigned char>(t.values[i]); break;
        case EXIF_FORMAT_SHORT: exif_set_short(at, order, static_cast<ExifShort>(t.values[i])); break;
        case EXIF_FORMAT_LONG: exif_set_long(at, order, static_cast<ExifLong>(t.values[i])); break;
        case EXIF_FORMAT_RATIONAL:
          exif_set_rational(at, order, {static_cast<ExifLong>(t.values[2 * i]), static_cast<ExifLong>(t.values[2 * i + 1])});
          break;
        case EXIF_FORMAT_SRATIONAL:
          exif_set_srational(at, order, {static_cast<ExifSLong>(t.values[2 * i]), static_cast<ExifSLong>(t.values[2 * i + 1])});
          break;
        default: break;
      }
    }
    exif_content_add_entry(d->ifd[t.ifd], e);
    exif_entry_unref(e);
  }
  if (!thumbnail.empty()) {
    d->data = static_cast<unsigned char*>(std::malloc(thumbnail.size()));
    std::memcpy(d->data, thumbnail.data(), thumbnail.size());
    d->size = static_cast<unsigned int>(thumbnail.size());
  }
  unsigned char* saved = nullptr;
  unsigned int size = 0;
  exif_data_save_data(d, &saved, &size);
  Bytes out(saved + 6, saved + size);
  std::free(saved);
  exif_data_unref(d);
  return out;
}

inline TagSpec ascii(ExifIfd ifd, std::uint16_t tag, const std::string& text) {
  return {ifd, tag, EXIF_FORMAT_ASCII, static_cast<std::uint32_t>(text.size() + 1), {}, text};
}

// A camera's block, every IFD's tags in tag order (as libexif saves any
// block it loaded): IFD0's text and Orientation, the Exif IFD's exposure,
// ISO, dates, comment and maker note, a GPS position.
inline std::vector<TagSpec> camera_tags() {
  using namespace std::string_literals;
  return {
      ascii(EXIF_IFD_0, 0x010e, "a test scene"),
      ascii(EXIF_IFD_0, 0x010f, "gpuimg-test"),
      ascii(EXIF_IFD_0, 0x0110, "Round Trip 1"),
      {EXIF_IFD_0, 0x0112, EXIF_FORMAT_SHORT, 1, {1}},
      ascii(EXIF_IFD_0, 0x0131, "gpuimg"),
      ascii(EXIF_IFD_0, 0x0132, "2026:11:26 08:00:00"),
      ascii(EXIF_IFD_0, 0x013b, "A. Tester"),
      ascii(EXIF_IFD_0, 0x8298, "CC0"),
      {EXIF_IFD_EXIF, 0x829a, EXIF_FORMAT_RATIONAL, 1, {1, 250}},  // ExposureTime
      {EXIF_IFD_EXIF, 0x829d, EXIF_FORMAT_RATIONAL, 1, {28, 10}},  // FNumber, not 14/5
      {EXIF_IFD_EXIF, 0x8827, EXIF_FORMAT_SHORT, 1, {200}},        // ISOSpeedRatings
      {EXIF_IFD_EXIF, 0x9000, EXIF_FORMAT_UNDEFINED, 4, {}, "0230"},
      ascii(EXIF_IFD_EXIF, 0x9003, "2026:11:26 07:59:58"),
      {EXIF_IFD_EXIF, 0x9204, EXIF_FORMAT_SRATIONAL, 1, {-2, 3}},  // ExposureBiasValue
      {EXIF_IFD_EXIF, 0x920a, EXIF_FORMAT_RATIONAL, 1, {500, 10}},  // FocalLength
      {EXIF_IFD_EXIF, 0x927c, EXIF_FORMAT_UNDEFINED, 10, {}, "maker\0note"s},
      {EXIF_IFD_EXIF, 0x9286, EXIF_FORMAT_UNDEFINED, 13, {}, "ASCII\0\0\0hello"s},  // UserComment
      {EXIF_IFD_EXIF, 0xa002, EXIF_FORMAT_LONG, 1, {7}},  // PixelXDimension
      {EXIF_IFD_EXIF, 0xa432, EXIF_FORMAT_RATIONAL, 4, {24, 1, 70, 1, 28, 10, 28, 10}},  // LensSpecification
      {EXIF_IFD_GPS, 0x0000, EXIF_FORMAT_BYTE, 4, {2, 3, 0, 0}},  // GPSVersionID
      ascii(EXIF_IFD_GPS, 0x0001, "N"),
      {EXIF_IFD_GPS, 0x0002, EXIF_FORMAT_RATIONAL, 3, {52, 1, 30, 1, 1234, 100}},
      {EXIF_IFD_GPS, 0x0005, EXIF_FORMAT_BYTE, 1, {0}},
      {EXIF_IFD_GPS, 0x0006, EXIF_FORMAT_RATIONAL, 1, {1000, 10}},
  };
}

// One entry as libexif reads it out of a block: its format, count and
// bytes; format 0 where the block has no such entry.
struct ReadEntry {
  int format = 0;
  unsigned count = 0;
  Bytes data;
  bool big_endian = false;

  std::uint32_t u32(unsigned i) const {
    const ExifByteOrder o = big_endian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL;
    return exif_get_long(data.data() + 4 * i, o);
  }
  std::uint16_t u16(unsigned i) const {
    return exif_get_short(data.data() + 2 * i, big_endian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL);
  }
  std::string text() const { return std::string(data.begin(), std::find(data.begin(), data.end(), 0)); }
};

inline ReadEntry exif_entry_of(const Bytes& exif, ExifIfd ifd, std::uint16_t tag) {
  Bytes framed = {'E', 'x', 'i', 'f', 0, 0};
  framed.insert(framed.end(), exif.begin(), exif.end());
  ExifData* d = exif_data_new();
  exif_data_unset_option(d, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
  exif_data_unset_option(d, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
  exif_data_load_data(d, framed.data(), static_cast<unsigned>(framed.size()));
  ReadEntry out;
  out.big_endian = exif_data_get_byte_order(d) == EXIF_BYTE_ORDER_MOTOROLA;
  if (const ExifEntry* e = exif_content_get_entry(d->ifd[ifd], static_cast<::ExifTag>(tag))) {
    out.format = e->format;
    out.count = static_cast<unsigned>(e->components);
    out.data.assign(e->data, e->data + e->size);
  }
  exif_data_unref(d);
  return out;
}

// The entries of the IFD at `offset` of a classic TIFF, by tag: type,
// count and the bytes of the values, wherever they lie.
struct TiffEntry2 {
  std::uint16_t type = 0;
  std::uint32_t count = 0;
  Bytes values;
};

inline std::map<std::uint16_t, TiffEntry2> tiff_ifd(const Bytes& tif, std::size_t offset) {
  const bool be = tif.at(0) == 'M';
  const auto get = [&](std::size_t at, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint32_t{tif.at(at + i)} << 8 * (be ? n - 1 - i : i);
    return v;
  };
  std::map<std::uint16_t, TiffEntry2> out;
  for (std::size_t i = 0, n = get(offset, 2); i < n; ++i) {
    const std::size_t e = offset + 2 + 12 * i;
    TiffEntry2 entry;
    entry.type = static_cast<std::uint16_t>(get(e + 2, 2));
    entry.count = get(e + 4, 4);
    const std::size_t size = entry.count * std::size_t{entry.type == 3 || entry.type == 8 ? 2u
                                                        : entry.type == 4 || entry.type == 9 || entry.type == 13 ? 4u
                                                        : entry.type == 5 || entry.type == 10 ? 8u
                                                                                               : 1u};
    const std::size_t at = size <= 4 ? e + 8 : get(e + 8, 4);
    entry.values.assign(tif.begin() + at, tif.begin() + at + size);
    out[static_cast<std::uint16_t>(get(e, 2))] = entry;
  }
  return out;
}

inline std::uint32_t tiff_first_ifd(const Bytes& tif) {
  return tif.at(0) == 'M' ? be32(tif, 4)
                          : std::uint32_t{tif.at(4)} | std::uint32_t{tif.at(5)} << 8 | std::uint32_t{tif.at(6)} << 16 |
                                std::uint32_t{tif.at(7)} << 24;
}

// One entry of a TIFF written byte by byte: its values as stored, little-endian.
struct RawTag {
  std::uint16_t tag, type;
  std::uint32_t count;
  Bytes value;
};

inline RawTag raw_short(std::uint16_t tag, std::uint16_t v) { return {tag, 3, 1, {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8)}}; }
inline RawTag raw_ascii(std::uint16_t tag, const std::string& text) {
  Bytes b(text.begin(), text.end());
  b.push_back(0);
  return {tag, 2, static_cast<std::uint32_t>(b.size()), b};
}
inline RawTag raw_rational(std::uint16_t tag, std::uint32_t num, std::uint32_t den) {
  Bytes b;
  put_le(b, num, 4);
  put_le(b, den, 4);
  return {tag, 5, 1, b};
}

// A little-endian 2x2 8-bit gray TIFF, made here byte by byte: IFD0 holds
// its own tags and `image`, and points (34665) at an Exif IFD holding
// `exif`, at `exif_at` where given, else where it lies, right after IFD0.
inline Bytes tiff_with_exif_ifd(std::vector<RawTag> image, const std::vector<RawTag>& exif, std::int64_t exif_at = -1) {
  const Bytes pixels = {10, 20, 30, 40};
  for (const RawTag& t : {raw_short(256, 2), raw_short(257, 2), raw_short(258, 8), raw_short(259, 1), raw_short(262, 1),
                          RawTag{273, 4, 1, Bytes(4)}, raw_short(277, 1), raw_short(278, 2), RawTag{279, 4, 1, {4, 0, 0, 0}},
                          RawTag{34665, 4, 1, Bytes(4)}})
    image.push_back(t);
  std::sort(image.begin(), image.end(), [](const RawTag& a, const RawTag& b) { return a.tag < b.tag; });
  const std::size_t exif_ifd = 8 + 2 + 12 * image.size() + 4, data = exif_ifd + 2 + 12 * exif.size() + 4;
  Bytes area = pixels;
  Bytes out = {'I', 'I', 42, 0};
  put_le(out, 8, 4);
  const auto put_ifd = [&](const std::vector<RawTag>& tags) {
    put_le(out, tags.size(), 2);
    for (RawTag t : tags) {
      if (t.tag == 273) t.value = {static_cast<std::uint8_t>(data), static_cast<std::uint8_t>(data >> 8), 0, 0};
      if (t.tag == 34665) {
        t.value.clear();
        put_le(t.value, exif_at < 0 ? exif_ifd : static_cast<std::uint64_t>(exif_at), 4);
      }
      put_le(out, t.tag, 2);
      put_le(out, t.type, 2);
      put_le(out, t.count, 4);
      if (t.value.size() <= 4) {
        t.value.resize(4);
        out.insert(out.end(), t.value.begin(), t.value.end());
        continue;
      }
      put_le(out, data + area.size(), 4);
      area.insert(area.end(), t.value.begin(), t.value.end());
      if (area.size() % 2) area.push_back(0);
    }
    put_le(out, 0, 4);
  };
  put_ifd(image);
  put_ifd(exif);
  out.insert(out.end(), area.begin(), area.end());
  return out;
}

}  // namespace gpuimg::test
