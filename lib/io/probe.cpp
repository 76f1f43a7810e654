// Each format's header read for the decoded image's shape. Dimensions come
// from header_dims.hpp and inspect_jpeg, the readers the pixel limit uses;
// channels and depth from the fields beside them, or the decoder's most.
#include "probe.hpp"

#include "backends.hpp"

namespace gpuimg {
namespace {

using detail::has;
using detail::read_uint;

// Chunks before the first IDAT: a tRNS among them gains an alpha channel
// (png_codec.cpp expands it). Where the file ends first, assume it does.
bool png_may_gain_alpha(const Bytes& b) {
  for (std::uint64_t pos = 8; has(b, pos, 8);) {
    const std::uint64_t len = read_uint(b, pos, 4, true);
    if (detail::starts_with(b, "IDAT", pos + 4)) return false;
    if (detail::starts_with(b, "tRNS", pos + 4)) return true;
    pos += 12 + len;  // length, type, data, CRC
  }
  return true;
}

// IHDR: bit depth at 24, colour type at 25. Palettes and gray below 8 bits
// expand to 8-bit RGB and gray.
std::optional<ImageShape> png_shape(const Bytes& b, Dims d) {
  if (!has(b, 24, 2)) return std::nullopt;
  const int bit_depth = b[24], colour_type = b[25];
  int channels = 0;
  switch (colour_type) {
    case 0: channels = 1; break;  // gray
    case 2: channels = 3; break;  // RGB
    case 3: channels = 3; break;  // palette
    case 4: return ImageShape{d.width, d.height, 2, bit_depth == 16 ? Depth::U16 : Depth::U8};
    case 6: return ImageShape{d.width, d.height, 4, bit_depth == 16 ? Depth::U16 : Depth::U8};
    default: return std::nullopt;
  }
  if (png_may_gain_alpha(b)) ++channels;
  return ImageShape{d.width, d.height, channels, bit_depth == 16 ? Depth::U16 : Depth::U8};
}

// jpeg_codec.cpp decodes one component to gray and three or four (CMYK,
// YCCK) to RGB, always 8-bit.
std::optional<ImageShape> jpeg_shape(const Bytes& b) {
  const JpegLayout layout = inspect_jpeg(b);
  if (!layout.dims || layout.components == 0) return std::nullopt;
  return ImageShape{layout.dims->width, layout.dims->height, layout.components == 1 ? 1 : 3, Depth::U8};
}

// P1, P2, P4, P5 are gray, P3 and P6 RGB; a maximum above 255, further on,
// makes 16-bit samples, so P2, P3, P5 and P6 are taken as 16-bit.
ImageShape pnm_shape(const Bytes& b, Dims d) {
  const char kind = static_cast<char>(b[1]);
  const int channels = kind == '3' || kind == '6' ? 3 : 1;
  const Depth depth = kind == '1' || kind == '4' ? Depth::U8 : Depth::U16;
  return ImageShape{d.width, d.height, channels, depth};
}

}  // namespace

std::optional<ImageShape> probe_image(const Bytes& file) {
  const std::optional<Format> format = sniff_format(file);
  if (!format) return std::nullopt;
  if (*format == Format::jpeg) return jpeg_shape(file);
  if (*format == Format::tga || *format == Format::psd || *format == Format::gif) return stb_shape(file, *format);
  const std::optional<Dims> d = header_dims(*format, file);
  if (!d) return std::nullopt;
  switch (*format) {
    case Format::png: return png_shape(file, *d);
    case Format::pnm: return pnm_shape(file, *d);
    case Format::webp:  // 8-bit; alpha possible but for VP8, which has none
      return ImageShape{d->width, d->height, detail::starts_with(file, "VP8 ", 12) ? 3 : 4, Depth::U8};
    case Format::bmp: return ImageShape{d->width, d->height, 4, Depth::U8};
    case Format::tiff: return ImageShape{d->width, d->height, 4, Depth::U16};
    default: return std::nullopt;
  }
}

}  // namespace gpuimg
