#include "metadata.hpp"

#include <algorithm>

#include "backends.hpp"
#include "exif_block.hpp"
#include "joined.hpp"
#include "metadata_formats.hpp"
#include "number_text.hpp"
#include "resolution.hpp"

namespace gpuimg {
namespace {

constexpr std::size_t kIccHeader = 128;

std::string icc_colour_space(const Bytes& icc) {
  return icc.size() < kIccHeader ? "" : std::string(icc.begin() + 16, icc.begin() + 20);
}

// "RGB " as "RGB": the signature is padded with spaces to four letters.
std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string bytes_text(std::size_t n) { return std::to_string(n) + " bytes"; }

std::string without(std::size_t items) { return items == 1 ? "; written without it" : "; written without them"; }

// JPEG's segments cap each item, and libpng's readers each PNG chunk (a
// profile written past that cap is one libpng refuses); WebP and TIFF cap
// none below memory.
void fit(Metadata& m, std::size_t icc_max, std::size_t exif_max, std::size_t xmp_max, const char* holder,
         std::vector<std::string>& notes) {
  const auto cap = [&](Bytes& item, std::size_t max, const char* what) {
    if (item.size() <= max) return;
    notes.push_back(std::string("the ") + what + " is " + bytes_text(item.size()) + ", over the " + std::to_string(max) +
                    " " + holder + without(1));
    item.clear();
  };
  cap(m.icc, icc_max, "ICC profile");
  cap(m.exif, exif_max, "EXIF block");
  cap(m.xmp, xmp_max, "XMP packet");
}

bool holds_resolution(Format format) {
  return format == Format::png || format == Format::jpeg || format == Format::tiff || format == Format::bmp;
}

// BITMAPINFOHEADER and the headers after it: pixels per metre, signed, at
// bytes 38 and 42; 0 states none, as stb_image_write writes.
void read_bmp_resolution(const Bytes& b, Metadata& out) {
  if (b.size() < 46 || detail::read_uint(b, 14, 4, false) < 40) return;
  const auto x = static_cast<std::int32_t>(detail::read_uint(b, 38, 4, false));
  const auto y = static_cast<std::int32_t>(detail::read_uint(b, 42, 4, false));
  if (x > 0 && y > 0) out.resolution = png_resolution({1, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)});
  if (x < 0 || y < 0) out.ignored.push_back("a BMP's resolution, whose pixels per metre are negative");
}

}  // namespace

std::string icc_problem(const Bytes& icc) {
  if (icc.size() < kIccHeader) return bytes_text(icc.size()) + ", shorter than its 128-byte header";
  const std::uint64_t declared = detail::read_uint(icc, 0, 4, true);
  if (declared != icc.size()) return "its header gives " + bytes_text(declared) + "; it has " + bytes_text(icc.size());
  return "";
}

bool icc_fits(const Bytes& icc, int channels) { return icc_colour_space(icc) == (channels <= 2 ? "GRAY" : "RGB "); }

Metadata read_metadata(const InputFile& input, int frame) {
  Metadata m;
  if (input.format == Format::png) read_png_metadata(input.bytes, m);
  if (input.format == Format::jpeg) read_jpeg_metadata(input.bytes, m);
  if (input.format == Format::webp) read_webp_metadata(input.bytes, m);
  if (input.format == Format::bmp) read_bmp_resolution(input.bytes, m);
#if GPUIMG_WITH_TIFF
  if (input.format == Format::tiff) read_tiff_metadata(input.bytes, frame, m);
#else
  (void)frame;
#endif
  // Some writers put JPEG's APP1 header before a PNG's or WebP's block too.
  static constexpr std::uint8_t kApp1Header[] = {'E', 'x', 'i', 'f', 0, 0};
  if (m.exif.size() >= sizeof kApp1Header && std::equal(kApp1Header, kApp1Header + sizeof kApp1Header, m.exif.begin()))
    m.exif.erase(m.exif.begin(), m.exif.begin() + sizeof kApp1Header);
  if (!m.exif.empty()) {
    const ExifReading exif = read_exif(m.exif);
    if (exif.corrupt) {
      m.ignored.push_back("the EXIF block (" + exif.problem + ")");
      m.exif.clear();
    }
    m.orientation = exif.orientation;
    // A camera's JPEG says its resolution in EXIF alone, with no JFIF
    // density: taken where JFIF says none, as Pillow and libvips take it.
    if (!exif.corrupt && input.format == Format::jpeg && !m.resolution.given()) {
      if (exif.bad_resolution)
        m.ignored.push_back("EXIF's resolution, whose unit or size is out of range");
      else
        m.resolution = exif.resolution;
    }
  }
  return m;
}

Metadata metadata_to_write(const Metadata& given, Format format, int channels, std::vector<std::string>& notes) {
  Metadata m;
  if (holds_resolution(format)) m.resolution = given.resolution;
  m.icc = given.icc;
  m.exif = given.exif;
  m.xmp = given.xmp;
  if (!m.icc.empty() && !icc_fits(m.icc, channels)) {
    notes.push_back("the ICC profile is for " + trimmed(icc_colour_space(m.icc)) + ", the image written is " +
                    (channels <= 2 ? "gray" : "RGB") + without(1));
    m.icc.clear();
  }
  if (format == Format::tiff) {
    // EXIF goes in as tags (tiff_exif.hpp; the encoder says what it left
    // out), and the TIFF's Orientation tag stands in for EXIF's.
    m.orientation = given.orientation;
    return m;
  }
  // Kept as stored (--no-auto-orient), a TIFF's own Orientation tag has no
  // EXIF block to travel in to another format.
  if (given.orientation != 1 && given.exif.empty())
    notes.push_back("the orientation " + std::to_string(given.orientation) +
                    " of the pixels as stored has no EXIF block to go in" + without(1));
  if (format == Format::png) {
    fit(m, kMaxPngChunk, kMaxPngChunk, kMaxPngChunk, "a PNG chunk may hold for libpng", notes);
    return m;
  }
  if (format == Format::jpeg) {
    fit(m, kJpegIccMax, kJpegExifMax, kJpegXmpMax, "a JPEG holds", notes);
    const Resolution& r = m.resolution;
    if (r.unit != Resolution::Unit::aspect && std::max(r.x, r.y) >= kJfifMost + 0.5) {
      const StoredDensity d = jfif_density(r);
      notes.push_back("the resolution " + number_text(r.x) + " by " + number_text(r.y) + " per " +
                      (r.unit == Resolution::Unit::inch ? "inch" : "centimetre") + " passes the " +
                      std::to_string(kJfifMost) + " a JFIF density holds; written as " + std::to_string(d.x) + " by " +
                      std::to_string(d.y));
    }
    return m;
  }
  // WebP holds the three blocks and no resolution; BMP the resolution
  // alone; the other formats none.
  const bool blocks = format == Format::webp;
  std::vector<std::string> items;
  if (!blocks && !m.icc.empty()) items.push_back("ICC profile");
  if (!blocks && !m.exif.empty()) items.push_back("EXIF");
  if (!blocks && !m.xmp.empty()) items.push_back("XMP");
  if (given.resolution.given() && (format != Format::bmp || given.resolution.unit == Resolution::Unit::aspect))
    items.push_back("resolution");
  if (!items.empty())
    notes.push_back(std::string(format_name(format)) + " holds no " + joined(items, ", ", " or ") + without(items.size()));
  if (blocks) return m;
  Metadata kept;
  kept.resolution = m.resolution;
  return kept;
}

}  // namespace gpuimg
