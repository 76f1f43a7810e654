#include <cstring>
#include <map>
#include <string>

#include "metadata_formats.hpp"
#include "resolution.hpp"

namespace gpuimg {
namespace {

constexpr char kExifId[] = "Exif\0";  // with the literal's NUL: "Exif\0\0"
constexpr char kXmpId[] = "http://ns.adobe.com/xap/1.0/";
constexpr char kExtendedXmpId[] = "http://ns.adobe.com/xmp/extension/";
constexpr char kIccId[] = "ICC_PROFILE";
constexpr char kJfifId[] = "JFIF";  // with the literal's NUL

bool starts_with(const std::uint8_t* seg, std::size_t n, const char* id, std::size_t id_len) {
  return n >= id_len && std::memcmp(seg, id, id_len) == 0;
}

// The APP2 chunks of an ICC profile, by number, and their count as each gives it.
struct IccChunks {
  std::map<int, Bytes> by_number;
  std::string problem;
  int count = 0;

  void add(const std::uint8_t* seg, std::size_t n) {
    if (n < sizeof kIccId + 2) return note("an ICC_PROFILE segment with no chunk number");
    const int number = seg[sizeof kIccId], of = seg[sizeof kIccId + 1];
    if (of == 0 || number == 0 || number > of) return note("chunk " + std::to_string(number) + " of " + std::to_string(of));
    if (count != 0 && of != count) return note("chunks of " + std::to_string(count) + " and of " + std::to_string(of));
    count = of;
    if (!by_number.emplace(number, Bytes(seg + sizeof kIccId + 2, seg + n)).second)
      note("chunk " + std::to_string(number) + " twice");
  }
  void note(const std::string& what) {
    if (problem.empty()) problem = what;
  }

  void join_into(Metadata& out) {
    if (problem.empty() && by_number.size() != static_cast<std::size_t>(count))
      problem = std::to_string(count - static_cast<int>(by_number.size())) + " of its " + std::to_string(count) +
                " chunks missing";
    if (!problem.empty()) return out.ignored.push_back("the ICC profile of a JPEG (" + problem + ")");
    Bytes icc;
    for (const auto& chunk : by_number) icc.insert(icc.end(), chunk.second.begin(), chunk.second.end());
    const std::string bad = icc_problem(icc);
    if (!bad.empty()) return out.ignored.push_back("the ICC profile of a JPEG (" + bad + ")");
    out.icc = std::move(icc);
  }
};

// After "JFIF\0": version (2 bytes), unit, x and y density (2 bytes each).
void read_jfif(const std::uint8_t* seg, std::size_t n, Metadata& out) {
  const std::uint8_t* d = seg + sizeof kJfifId;
  if (n < sizeof kJfifId + 7) return out.ignored.push_back("a JPEG's JFIF segment cut short");
  const StoredDensity density{d[2], std::uint32_t{d[3]} << 8 | d[4], std::uint32_t{d[5]} << 8 | d[6]};
  // Some writers state no aspect as 0:0, which libjpeg takes without a word.
  if (density.unit == 0 && (density.x == 0 || density.y == 0)) return;
  if (density.unit > 2 || density.x == 0 || density.y == 0)
    return out.ignored.push_back("a JPEG's JFIF density, whose unit or size is out of range");
  out.resolution = jfif_resolution(density);
}

}  // namespace

void read_jpeg_metadata(const Bytes& b, Metadata& out) {
  IccChunks icc;
  bool extended_xmp = false, jfif = false;
  const std::size_t n = b.size();
  for (std::size_t pos = 2; pos < n && b[pos] == 0xff;) {
    while (pos < n && b[pos] == 0xff) ++pos;  // fill bytes
    if (pos >= n) break;
    const int marker = b[pos++];
    if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue;  // no length: TEM, RSTn, SOI
    if (marker == 0xda || marker == 0xd9 || n - pos < 2) break;          // metadata comes before the first scan
    const std::size_t len = std::size_t{b[pos]} << 8 | b[pos + 1];
    if (len < 2 || len > n - pos) break;  // inspect_jpeg has named the damage
    const std::uint8_t* seg = b.data() + pos + 2;
    const std::size_t seg_len = len - 2;
    pos += len;
    if (marker == 0xe0 && !jfif && starts_with(seg, seg_len, kJfifId, sizeof kJfifId)) {
      jfif = true;
      read_jfif(seg, seg_len, out);
    } else if (marker == 0xe1 && starts_with(seg, seg_len, kExifId, sizeof kExifId)) {
      if (out.exif.empty()) out.exif.assign(seg + sizeof kExifId, seg + seg_len);
    } else if (marker == 0xe1 && starts_with(seg, seg_len, kXmpId, sizeof kXmpId)) {
      if (out.xmp.empty()) out.xmp.assign(seg + sizeof kXmpId, seg + seg_len);
    } else if (marker == 0xe1 && starts_with(seg, seg_len, kExtendedXmpId, sizeof kExtendedXmpId)) {
      if (!extended_xmp) out.ignored.push_back("a JPEG's extended XMP (the part past 64 KiB), which gpuimg does not join");
      extended_xmp = true;
    } else if (marker == 0xe2 && starts_with(seg, seg_len, kIccId, sizeof kIccId)) {
      icc.add(seg, seg_len);
    }
  }
  if (icc.count != 0 || !icc.problem.empty()) icc.join_into(out);
}

}  // namespace gpuimg
