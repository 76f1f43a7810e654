// Each format's header read for the decoded image's shape: dimensions from
// header_dims.hpp, inspect_jpeg or stbi_info, whichever reads the header as
// the build's decoder for the format does; channels and depth from the
// fields beside them, or the decoder's most.
#include "probe.hpp"

#include <algorithm>

#include "backends.hpp"

namespace gpuimg {
namespace {

using detail::has;
using detail::read_uint;

// Chunks before the first IDAT: a tRNS among them gains an alpha channel
// (png_codec.cpp expands it), and so does an acTL (an APNG's frames past
// the first are composed with alpha: apng.hpp). Where the file ends
// first, assume it does.
bool png_may_gain_alpha(const Bytes& b) {
  for (std::uint64_t pos = 8; has(b, pos, 8);) {
    const std::uint64_t len = read_uint(b, pos, 4, true);
    if (detail::starts_with(b, "IDAT", pos + 4)) return false;
    if (detail::starts_with(b, "tRNS", pos + 4) || detail::starts_with(b, "acTL", pos + 4)) return true;
    pos += 12 + len;  // length, type, data, CRC
  }
  return true;
}

// w * h * bits / 8, saturating: every bound below is a lower one, so
// rounding down keeps it safe.
std::uint64_t bits_to_bytes(std::uint64_t w, std::uint64_t h, std::uint64_t bits) {
  std::uint64_t v = 0;
  if (__builtin_mul_overflow(w, h, &v) || __builtin_mul_overflow(v, bits, &v)) return UINT64_MAX;
  return v / 8;
}

// Deflate gains at most 1032:1 (a 258-byte match in two one-bit codes).
constexpr std::uint64_t kDeflateMostGain = 1032;

// IHDR: bit depth at 24, colour type at 25. Palettes and gray below 8 bits
// expand to 8-bit RGB and gray.
std::optional<ImageShape> png_shape(const Bytes& b, Dims d) {
  if (!has(b, 24, 2)) return std::nullopt;
  const int bit_depth = b[24], colour_type = b[25];
  int channels = 0, stored_samples = 0;
  switch (colour_type) {
    case 0: channels = 1; stored_samples = 1; break;  // gray
    case 2: channels = 3; stored_samples = 3; break;  // RGB
    case 3: channels = 3; stored_samples = 1; break;  // palette
    case 4: channels = 2; stored_samples = 2; break;
    case 6: channels = 4; stored_samples = 4; break;
    default: return std::nullopt;
  }
  if (channels == 1 || channels == 3) channels += png_may_gain_alpha(b) ? 1 : 0;
  const Depth depth = bit_depth == 16 ? Depth::U16 : Depth::U8;
  const std::uint64_t raw = bits_to_bytes(d.width, d.height, std::uint64_t(stored_samples) * bit_depth);
  return ImageShape{d.width, d.height, channels, depth, 33 + raw / kDeflateMostGain};  // signature and IHDR first
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t v = 0;
  return __builtin_add_overflow(a, b, &v) ? UINT64_MAX : v;
}

// P1, P2, P4, P5 are gray, P3 and P6 RGB; a maximum above 255, further on,
// makes 16-bit samples, so P2, P3, P5 and P6 are taken as 16-bit. Every
// text sample takes at least a byte; a P4 is exactly its header, then rows
// of whole bytes, as pnm_text.cpp reads it (`bits_at`, from pnm_dims).
ImageShape pnm_shape(const Bytes& b, Dims d, std::uint64_t bits_at) {
  const char kind = static_cast<char>(b[1]);
  const int channels = kind == '3' || kind == '6' ? 3 : 1;
  const Depth depth = kind == '1' || kind == '4' ? Depth::U8 : Depth::U16;
  const std::uint64_t rows = bits_to_bytes((d.width + 7) / 8, d.height, 8);
  const std::uint64_t least = kind != '4' ? bits_to_bytes(d.width, d.height, 8 * channels)
                              : rows == 0  ? 0  // no pixels: refused as such, not as cut short
                                           : saturating_add(bits_at, rows);
  return ImageShape{d.width, d.height, channels, depth, least};
}

// An uncompressed BMP (none, or bit fields) is exactly its pixels, from the
// offset its header gives, in rows padded to 4 bytes: stb_image reads them
// so, the last row's padding too, and starts no earlier than that offset
// (an offset past 2^31 - 1 it refuses itself). Run-length ones have no
// useful least.
std::uint64_t bmp_min_bytes(const Bytes& b, Dims d) {
  if (!has(b, 14, 4)) return 0;
  const bool core = read_uint(b, 14, 4, false) == 12;
  const std::uint64_t bpp_at = core ? 24 : 28;
  if (!has(b, bpp_at, 2) || (!core && !has(b, 30, 4))) return 0;
  const std::uint64_t compression = core ? 0 : read_uint(b, 30, 4, false);
  if (compression != 0 && compression != 3) return 0;
  const std::uint64_t bpp = read_uint(b, bpp_at, 2, false);
  if (d.width > (UINT64_MAX - 31) / std::max<std::uint64_t>(bpp, 1)) return UINT64_MAX;
  const std::uint64_t row = (d.width * bpp + 31) / 32 * 4;
  std::uint64_t v = 0;
  if (__builtin_mul_overflow(row, d.height, &v)) return UINT64_MAX;
  const std::uint64_t offset = read_uint(b, 10, 4, false);
  return offset > 0x7fffffff ? v : saturating_add(offset, v);
}

// P5 and P6: exactly the header as stb_image reads it, then the samples,
// two bytes each where the maximum is over 255.
std::uint64_t binary_pnm_min_bytes(const Bytes& b, const ImageShape& s) {
  std::uint64_t samples_at = 0;
  if (!detail::pnm_header_numbers(b, &samples_at)) return 0;
  const std::uint64_t sample_bits = 8 * static_cast<std::uint64_t>(bytes_per_sample(s.depth));
  return saturating_add(samples_at, bits_to_bytes(s.width, s.height, sample_bits * static_cast<std::uint64_t>(s.channels)));
}

// The formats stb_image reads, with the least from their own headers (BMP
// and PNM as above): TGA
// stores each pixel in whole bytes, its RLE packets at most 128 pixels in
// 1 + a pixel's bytes. GIF's canvas may be far larger than its first frame.
std::uint64_t stb_min_bytes(const Bytes& b, Format format, const ImageShape& s) {
  if (format == Format::bmp) return bmp_min_bytes(b, {s.width, s.height});
  if (format == Format::pnm) return binary_pnm_min_bytes(b, s);
  if (format != Format::tga || !has(b, 0, 18)) return 0;
  const std::uint64_t pixel_bytes = (b[16] + 7) / 8;
  const bool rle = b[2] >= 9;
  const std::uint64_t pixels = bits_to_bytes(s.width, s.height, 8);
  if (!rle) return 18 + (pixels > UINT64_MAX / pixel_bytes ? UINT64_MAX : pixels * pixel_bytes);
  return 18 + (pixels / 128) * (1 + pixel_bytes);
}

std::optional<ImageShape> stb_probe(const Bytes& file, Format format) {
  std::optional<ImageShape> shape = stb_shape(file);
  if (shape) shape->min_bytes = stb_min_bytes(file, format, *shape);
  return shape;
}

}  // namespace

// jpeg_codec.cpp decodes one component to gray and three or four (CMYK,
// YCCK) to RGB, always 8-bit. Huffman coding spends at least one bit on
// each 8x8 block's DC value, and no component has fewer blocks than one
// subsampled by 4 both ways; arithmetic coding has no such least.
std::optional<ImageShape> jpeg_shape(const JpegLayout& layout) {
  if (!layout.dims || layout.components == 0) return std::nullopt;
  const Dims d = *layout.dims;
  const std::uint64_t blocks = ((d.width + 31) / 32) * ((d.height + 31) / 32);
  return ImageShape{d.width, d.height, layout.components == 1 ? 1 : 3, Depth::U8, layout.arithmetic ? 0 : blocks / 8};
}

std::optional<ImageShape> probe_image(Format format, const Bytes& file) {
  switch (format) {
    case Format::jpeg: return jpeg_shape(inspect_jpeg(file));
    case Format::psd: return psd_shape(file);
    case Format::tga:
    case Format::gif: return stb_probe(file, format);
    case Format::bmp: return stb_probe(file, format);
    case Format::pnm: {
      // stb reads no size from a header whose side is 0, and then refuses
      // the file with another format's complaint: such a header is
      // reported as the empty image it describes.
      // stb reads no P1 to P4 (pnm_text.cpp does): their header is read
      // as that reader reads it.
      std::uint64_t bits_at = 0;
      const std::optional<Dims> d = detail::pnm_dims(file, &bits_at);
      if (d && (d->width == 0 || d->height == 0 || is_pnm_text_or_bitmap(file))) return pnm_shape(file, *d, bits_at);
      if (!detail::pnm_header_numbers(file)) return std::nullopt;  // the decoder refuses it
      return stb_probe(file, format);
    }
    default: break;
  }
  const std::optional<Dims> d = header_dims(format, file);
  if (!d) return std::nullopt;
  switch (format) {
    case Format::png: return png_shape(file, *d);
    case Format::webp:  // 8-bit; alpha possible but for VP8, which has none
      return ImageShape{d->width, d->height, detail::starts_with(file, "VP8 ", 12) ? 3 : 4, Depth::U8};
    case Format::tiff: return ImageShape{d->width, d->height, 4, Depth::U16};
    default: return std::nullopt;
  }
}

std::optional<ImageShape> probe_image(const Bytes& file) {
  const std::optional<Format> format = sniff_format(file);
  if (!format) return std::nullopt;
  return probe_image(*format, file);
}

}  // namespace gpuimg
