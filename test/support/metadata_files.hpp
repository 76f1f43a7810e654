#pragma once
// Metadata for the tests, built byte by byte, and read back out of written
// files by walks of their own (PNG chunks, JPEG segments), so that what
// gpuimg wrote is checked without its reader or exiftool.
#include <libexif/exif-data.h>
#include <zlib.h>

#include <cstring>
#include <map>
#include <random>
#include <string>

#include "crafted_files.hpp"

namespace gpuimg::test {

// A TIFF-structured EXIF block: IFD0 holding Orientation and Make, in
// either byte order; Orientation one SHORT, as EXIF says, or one LONG, as
// some writers put it.
inline Bytes exif_block(int orientation, bool big_endian = false, bool as_long = false) {
  const auto put = [&](Bytes& b, std::uint64_t v, int n) { big_endian ? put_be(b, v, n) : put_le(b, v, n); };
  Bytes b = big_endian ? Bytes{'M', 'M', 0, 42} : Bytes{'I', 'I', 42, 0};
  put(b, 8, 4);  // IFD0 right after the header
  put(b, 2, 2);
  put(b, 0x010f, 2);  // Make: ASCII, 12 bytes, past the IFD
  put(b, 2, 2);
  put(b, 12, 4);
  put(b, 8 + 2 + 2 * 12 + 4, 4);
  put(b, 0x0112, 2);  // Orientation: one value, in the entry
  put(b, as_long ? 4 : 3, 2);
  put(b, 1, 4);
  if (as_long) {
    put(b, static_cast<std::uint64_t>(orientation), 4);
  } else {
    put(b, static_cast<std::uint64_t>(orientation), 2);
    put(b, 0, 2);
  }
  put(b, 0, 4);  // no IFD1
  const char make[12] = "gpuimg-test";
  b.insert(b.end(), make, make + 12);
  return b;
}

// A profile's 128-byte header (its size, its colour space) and seeded random bytes after it.
inline Bytes icc_profile(std::size_t size, const char* space = "RGB ", std::uint32_t seed = 1) {
  Bytes b;
  put_be32(b, static_cast<std::uint32_t>(size));
  std::mt19937 rng(seed);
  while (b.size() < size) b.push_back(static_cast<std::uint8_t>(rng()));
  std::memcpy(b.data() + 16, space, 4);
  return b;
}

inline std::string xmp_packet(const std::string& marker = "gpuimg") {
  return "<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>" + marker +
         "</x:xmpmeta><?xpacket end='w'?>";
}

// libexif, as an oracle apart from gpuimg's use of it: Orientation of IFD0, 0 where absent.
inline int exif_orientation_of(const Bytes& exif) {
  Bytes framed = {'E', 'x', 'i', 'f', 0, 0};
  framed.insert(framed.end(), exif.begin(), exif.end());
  ExifData* d = exif_data_new_from_data(framed.data(), static_cast<unsigned>(framed.size()));
  if (!d) return -1;
  const ExifEntry* e = exif_content_get_entry(d->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
  const int v = e ? exif_get_short(e->data, exif_data_get_byte_order(d)) : 0;
  exif_data_unref(d);
  return v;
}

struct FileItems {
  Bytes icc, exif;
  std::string xmp;
  std::vector<std::string> kinds;  // every PNG chunk type, or JPEG APPn as "APP1"
};

inline Bytes inflated(const std::uint8_t* p, std::size_t n) {
  Bytes out(std::size_t{64} << 20);
  uLongf size = static_cast<uLongf>(out.size());
  if (uncompress(out.data(), &size, p, static_cast<uLong>(n)) != Z_OK) return {};
  out.resize(size);
  return out;
}

inline std::uint32_t be32(const Bytes& b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}

inline FileItems png_items(const Bytes& png) {
  FileItems out;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::size_t len = be32(png, at);
    const std::string type(png.begin() + at + 4, png.begin() + at + 8);
    const std::uint8_t* data = png.data() + at + 8;
    out.kinds.push_back(type);
    if (type == "eXIf") out.exif.assign(data, data + len);
    if (type == "iCCP") {
      const std::size_t name = std::strlen(reinterpret_cast<const char*>(data));
      out.icc = inflated(data + name + 2, len - name - 2);
    }
    const std::string keyword = "XML:com.adobe.xmp";
    if (type == "iTXt" && len > keyword.size() + 5 && std::memcmp(data, keyword.c_str(), keyword.size() + 1) == 0)
      out.xmp.assign(data + keyword.size() + 5, data + len);  // NUL, flag, method, empty language and translation
    at += 12 + len;
  }
  return out;
}

// APP1 Exif and XMP, and the APP2 ICC chunks joined by their numbers.
inline FileItems jpeg_items(const Bytes& jpg) {
  FileItems out;
  std::map<int, Bytes> icc;
  for (std::size_t at = 2; at + 4 <= jpg.size() && jpg[at] == 0xff && jpg[at + 1] != 0xda;) {
    const std::size_t len = std::size_t{jpg[at + 2]} << 8 | jpg[at + 3];
    const int marker = jpg[at + 1];
    const std::uint8_t* seg = jpg.data() + at + 4;
    const std::size_t n = len - 2;
    if (marker >= 0xe0 && marker <= 0xef) out.kinds.push_back("APP" + std::to_string(marker - 0xe0));
    if (marker == 0xe1 && n > 6 && std::memcmp(seg, "Exif\0\0", 6) == 0) out.exif.assign(seg + 6, seg + n);
    if (marker == 0xe1 && n > 29 && std::memcmp(seg, "http://ns.adobe.com/xap/1.0/\0", 29) == 0)
      out.xmp.assign(seg + 29, seg + n);
    if (marker == 0xe2 && n > 14 && std::memcmp(seg, "ICC_PROFILE\0", 12) == 0) icc[seg[12]] = Bytes(seg + 14, seg + n);
    at += 2 + len;
  }
  for (const auto& chunk : icc) out.icc.insert(out.icc.end(), chunk.second.begin(), chunk.second.end());
  return out;
}

// IFD0's ICC profile (34675) and XMP packet (700) of a classic TIFF, as
// libtiff writes one here (big-endian for a big-endian EXIF block); every
// tag number in `kinds` (34665: an Exif IFD).
inline FileItems tiff_items(const Bytes& tif) {
  FileItems out;
  if (tif.size() < 8 || (tif[0] != 'I' && tif[0] != 'M')) return out;
  const bool big_endian = tif[0] == 'M';
  const auto get = [&](std::size_t at, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint32_t{tif[at + i]} << 8 * (big_endian ? n - 1 - i : i);
    return v;
  };
  const std::size_t ifd = get(4, 4);
  for (std::size_t i = 0, n = get(ifd, 2); i < n; ++i) {
    const std::size_t e = ifd + 2 + 12 * i;
    const std::uint32_t tag = get(e, 2), count = get(e + 4, 4);
    out.kinds.push_back(std::to_string(tag));
    // Types BYTE and UNDEFINED: one byte each, in the entry up to 4.
    const std::uint8_t* data = tif.data() + (count <= 4 ? e + 8 : get(e + 8, 4));
    if (tag == 34675) out.icc.assign(data, data + count);
    if (tag == 700) out.xmp.assign(data, data + count);
  }
  return out;
}

// The RIFF chunks of a WebP: ICCP, EXIF and "XMP " as stored, every
// chunk's type in `kinds`.
inline FileItems webp_items(const Bytes& webp) {
  FileItems out;
  for (std::size_t at = 12; at + 8 <= webp.size();) {
    const std::string type(webp.begin() + at, webp.begin() + at + 4);
    const std::size_t len = std::size_t{webp[at + 4]} | std::size_t{webp[at + 5]} << 8 | std::size_t{webp[at + 6]} << 16 |
                            std::size_t{webp[at + 7]} << 24;
    const std::uint8_t* data = webp.data() + at + 8;
    out.kinds.push_back(type);
    if (type == "ICCP") out.icc.assign(data, data + len);
    if (type == "EXIF") out.exif.assign(data, data + len);
    if (type == "XMP ") out.xmp.assign(data, data + len);
    at += 8 + len + len % 2;  // chunks are padded to an even length
  }
  return out;
}

}  // namespace gpuimg::test
