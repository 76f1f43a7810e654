#pragma once
// Recognising a file's format from its first bytes. Names lie (a .png that
// is really a JPEG is common on the web), so the extension is never used.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuimg {

enum class Format : std::uint8_t { png, jpeg, tiff, webp, bmp, pnm, tga, psd, gif, radiance_hdr };

inline const char* format_name(Format f) {
  switch (f) {
    case Format::png: return "PNG";
    case Format::jpeg: return "JPEG";
    case Format::tiff: return "TIFF";
    case Format::webp: return "WebP";
    case Format::bmp: return "BMP";
    case Format::pnm: return "PNM";
    case Format::tga: return "TGA";
    case Format::psd: return "PSD";
    case Format::gif: return "GIF";
    case Format::radiance_hdr: return "Radiance HDR";
  }
  return "?";
}

namespace detail {

inline bool starts_with(const std::vector<std::uint8_t>& b, std::string_view magic, std::size_t at = 0) {
  return b.size() >= at + magic.size() && std::memcmp(b.data() + at, magic.data(), magic.size()) == 0;
}

// TGA has no signature, so this only accepts headers whose fields all hold
// values the format allows; random data passes with odds near one in 10^6.
inline bool looks_like_tga(const std::vector<std::uint8_t>& b) {
  if (b.size() < 18) return false;
  const int colormap = b[1], type = b[2], bits = b[16];
  const bool mapped_type = type == 1 || type == 9;
  const bool other_type = type == 2 || type == 3 || type == 10 || type == 11;
  const bool bits_ok = bits == 8 || bits == 15 || bits == 16 || bits == 24 || bits == 32;
  const int width = b[12] | b[13] << 8, height = b[14] | b[15] << 8;
  return (colormap == 1 ? mapped_type : colormap == 0 && other_type) && bits_ok && width > 0 && height > 0;
}

}  // namespace detail

inline std::optional<Format> sniff_format(const std::vector<std::uint8_t>& b) {
  using namespace std::string_view_literals;  // ""sv keeps the NUL bytes in the TIFF magics
  using detail::starts_with;
  if (starts_with(b, "\x89PNG\r\n\x1a\n")) return Format::png;
  if (starts_with(b, "\xff\xd8\xff")) return Format::jpeg;
  if (starts_with(b, "II*\0"sv) || starts_with(b, "MM\0*"sv) || starts_with(b, "II+\0"sv) || starts_with(b, "MM\0+"sv)) {
    return Format::tiff;  // the '+' forms are BigTIFF
  }
  if (starts_with(b, "RIFF") && starts_with(b, "WEBP", 8)) return Format::webp;
  if (starts_with(b, "BM")) return Format::bmp;
  const bool pnm_space = b.size() >= 3 && (b[2] == ' ' || b[2] == '\t' || b[2] == '\r' || b[2] == '\n' || b[2] == '#');
  if (pnm_space && b[0] == 'P' && b[1] >= '1' && b[1] <= '6') return Format::pnm;
  if (starts_with(b, "GIF87a") || starts_with(b, "GIF89a")) return Format::gif;
  if (starts_with(b, "8BPS")) return Format::psd;
  if (starts_with(b, "#?RADIANCE") || starts_with(b, "#?RGBE")) return Format::radiance_hdr;
  if (detail::looks_like_tga(b)) return Format::tga;
  return std::nullopt;
}

}  // namespace gpuimg
