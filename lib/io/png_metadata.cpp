#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "backends.hpp"
#include "metadata_formats.hpp"
#include "png_encoder.hpp"
#include "resolution.hpp"

namespace gpuimg {
namespace {

constexpr char kXmpKeyword[] = "XML:com.adobe.xmp";
// The profile's name is the writer's choice (1 to 79 bytes); this is libpng's.
constexpr char kIccName[] = "ICC profile";

// zlib data inflated whole, or nullopt where it is corrupt, does not end,
// or would pass kMaxPngChunk.
std::optional<Bytes> inflate_whole(const std::uint8_t* data, std::size_t n) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return std::nullopt;
  Bytes out;
  std::uint8_t buf[1 << 14];
  z.next_in = const_cast<std::uint8_t*>(data);
  z.avail_in = static_cast<uInt>(n);  // a chunk's length is below 2^31
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = buf;
    z.avail_out = sizeof buf;
    status = inflate(&z, Z_NO_FLUSH);
    out.insert(out.end(), buf, buf + (sizeof buf - z.avail_out));
    if (out.size() > kMaxPngChunk) status = Z_MEM_ERROR;
    if (status == Z_OK && z.avail_in == 0 && z.avail_out != 0) status = Z_DATA_ERROR;  // cut short
  }
  inflateEnd(&z);
  if (status != Z_STREAM_END) return std::nullopt;
  return out;
}

// The offset just past the NUL that ends a string starting at `from`, or
// `end` where there is none.
std::size_t past_nul(const Bytes& b, std::size_t from, std::size_t end) {
  const auto it = std::find(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(end), 0);
  return it == b.begin() + static_cast<std::ptrdiff_t>(end) ? end : static_cast<std::size_t>(it - b.begin()) + 1;
}

void read_iccp(const Bytes& b, std::size_t at, std::size_t end, Metadata& out) {
  const std::size_t method = past_nul(b, at, end);
  if (method >= end || b[method] != 0)
    return out.ignored.push_back("a PNG iCCP chunk whose profile name or compression method is missing or unknown");
  std::optional<Bytes> icc = inflate_whole(b.data() + method + 1, end - method - 1);
  if (!icc) return out.ignored.push_back("a PNG iCCP chunk whose compressed profile is corrupt or over 8,000,000 bytes");
  const std::string problem = icc_problem(*icc);
  if (!problem.empty()) return out.ignored.push_back("the ICC profile of a PNG iCCP chunk (" + problem + ")");
  out.icc = std::move(*icc);
}

// Whether the iTXt chunk at [at, end) is XMP's, by its keyword (other texts are not kept).
bool is_xmp(const Bytes& b, std::size_t at, std::size_t end) {
  return end - at >= sizeof kXmpKeyword && std::memcmp(b.data() + at, kXmpKeyword, sizeof kXmpKeyword) == 0;
}

// keyword\0, compressed flag, method, language\0, translated keyword\0, text.
void read_xmp_itxt(const Bytes& b, std::size_t at, std::size_t end, Metadata& out) {
  const std::size_t flags = at + sizeof kXmpKeyword;
  if (end - flags < 2) return out.ignored.push_back("a PNG XMP iTXt chunk cut short");
  const bool compressed = b[flags] != 0;
  const std::size_t translated = past_nul(b, flags + 2, end), text = past_nul(b, translated, end);
  // past_nul gives `end` where no NUL closes a field; an empty text has one just before it.
  if (text == end && (translated == end || b[end - 1] != 0))
    return out.ignored.push_back("a PNG XMP iTXt chunk cut short");
  if (!compressed) {
    out.xmp.assign(b.begin() + static_cast<std::ptrdiff_t>(text), b.begin() + static_cast<std::ptrdiff_t>(end));
    return;
  }
  std::optional<Bytes> xmp = b[flags + 1] == 0 ? inflate_whole(b.data() + text, end - text) : std::nullopt;
  if (!xmp) return out.ignored.push_back("a PNG XMP iTXt chunk whose compressed text is corrupt or over 8,000,000 bytes");
  out.xmp = std::move(*xmp);
}

// x and y pixels per unit (4 bytes each), the unit (0: none, 1: metre).
void read_phys(const Bytes& b, std::size_t at, std::size_t end, Metadata& out) {
  const std::uint64_t x = end - at == 9 ? detail::read_uint(b, at, 4, true) : 0;
  const std::uint64_t y = end - at == 9 ? detail::read_uint(b, at + 4, 4, true) : 0;
  if (x == 0 || y == 0 || x > 0x7fffffff || y > 0x7fffffff || b[at + 8] > 1)
    return out.ignored.push_back("a PNG pHYs chunk that is not 9 bytes, or whose size or unit is out of range");
  out.resolution = png_resolution({b[at + 8], static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)});
}

void put_phys(Bytes& out, const Resolution& r) {
  const StoredDensity d = png_density(r);
  if (!d.says_something()) return;
  const std::uint8_t data[9] = {std::uint8_t(d.x >> 24), std::uint8_t(d.x >> 16), std::uint8_t(d.x >> 8),
                                std::uint8_t(d.x),       std::uint8_t(d.y >> 24), std::uint8_t(d.y >> 16),
                                std::uint8_t(d.y >> 8),  std::uint8_t(d.y),       std::uint8_t(d.unit)};
  put_png_chunks(out, "pHYs", data, sizeof data);
}

void put_itxt_xmp(Bytes& out, const Bytes& xmp) {
  Bytes data(kXmpKeyword, kXmpKeyword + sizeof kXmpKeyword);  // with its NUL
  data.insert(data.end(), {0, 0, 0, 0});  // uncompressed, as XMP asks, so that scanners find the packet; empty language and translation
  data.insert(data.end(), xmp.begin(), xmp.end());
  put_png_chunks(out, "iTXt", data.data(), data.size());
}

}  // namespace

void read_png_metadata(const Bytes& b, Metadata& out) {
  bool icc_seen = false, exif_seen = false, xmp_seen = false, phys_seen = false, idat_seen = false;
  for (std::size_t pos = 8; b.size() >= pos && b.size() - pos >= 12;) {
    const std::uint64_t len = detail::read_uint(b, pos, 4, true);
    if (len > 0x7fffffff || len > b.size() - pos - 12) return;  // PNG's lengths are below 2^31
    const std::string type(b.begin() + static_cast<std::ptrdiff_t>(pos + 4), b.begin() + static_cast<std::ptrdiff_t>(pos + 8));
    if (type == "IEND") return;
    idat_seen = idat_seen || type == "IDAT";
    const std::size_t at = pos + 8, end = at + len;
    pos = end + 4;
    // The first of each: PNG allows one iCCP, eXIf and pHYs, and XMP has one
    // packet. A pHYs after the pixels is one libpng and PNG readers ignore.
    const bool first = (type == "iCCP" && !icc_seen) || (type == "eXIf" && !exif_seen) ||
                       (type == "pHYs" && !phys_seen && !idat_seen) || (type == "iTXt" && !xmp_seen && is_xmp(b, at, end));
    if (!first) continue;
    icc_seen = icc_seen || type == "iCCP";
    exif_seen = exif_seen || type == "eXIf";
    xmp_seen = xmp_seen || type == "iTXt";
    phys_seen = phys_seen || type == "pHYs";
    const auto crc = static_cast<std::uint32_t>(crc32(0, b.data() + at - 4, static_cast<uInt>(len + 4)));
    if (crc != detail::read_uint(b, end, 4, true)) {
      out.ignored.push_back("a PNG " + type + " chunk with a wrong CRC");
      continue;
    }
    if (type == "iCCP") read_iccp(b, at, end, out);
    if (type == "iTXt") read_xmp_itxt(b, at, end, out);
    if (type == "pHYs") read_phys(b, at, end, out);
    if (type == "eXIf") out.exif.assign(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(end));
  }
}

Bytes png_metadata_chunks(const Metadata& m) {
  Bytes out;
  if (!m.icc.empty()) {
    uLongf size = compressBound(static_cast<uLong>(m.icc.size()));
    Bytes data(kIccName, kIccName + sizeof kIccName);
    data.push_back(0);  // deflate, the one method PNG defines
    const std::size_t head = data.size();
    data.resize(head + size);
    if (compress2(data.data() + head, &size, m.icc.data(), static_cast<uLong>(m.icc.size()), Z_BEST_COMPRESSION) != Z_OK)
      throw CodecFailure("cannot encode PNG (zlib failed on the ICC profile)");
    data.resize(head + size);
    put_png_chunks(out, "iCCP", data.data(), data.size());
  }
  if (!m.exif.empty()) put_png_chunks(out, "eXIf", m.exif.data(), m.exif.size());
  if (!m.xmp.empty()) put_itxt_xmp(out, m.xmp);
  if (m.resolution.given()) put_phys(out, m.resolution);
  return out;
}

}  // namespace gpuimg
