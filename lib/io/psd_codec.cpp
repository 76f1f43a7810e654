// PSD's merged image, read here rather than by stb_image: stb decodes a
// file cut short into invented pixels, and its removal of the white matte
// converts out-of-range floats to integers (undefined behaviour, stb_image
// 2.27, stb_image.h:6213-6225). The format is simple enough to read in
// full: a 26-byte header, three sections skipped by their lengths, then
// the channels one plane after another, raw or PackBits-compressed row by
// row. Every read is bounds-checked: this runs on untrusted bytes.
#include <algorithm>
#include <climits>

#include "backends.hpp"

namespace gpuimg {
namespace {

using detail::has;
using detail::read_uint;

enum Mode { kGray = 1, kRgb = 3 };

// What the header and the sections' lengths say, checked as far as they go.
struct PsdLayout {
  std::uint64_t width = 0, height = 0;
  int planes = 0;       // stored channels, extra ones (spot colours) included
  int channels = 0;     // decoded: gray or RGB, and alpha from the next plane
  int sample_bytes = 0;  // 1 or 2
  bool rle = false;
  std::uint64_t data_at = 0;  // after the compression field
  std::string problem;        // why the file cannot be read, else empty
};

PsdLayout layout_of(const Bytes& b) {
  PsdLayout p;
  if (!has(b, 0, 26)) {
    p.problem = "truncated PSD (header cut short)";
    return p;
  }
  const std::uint64_t version = read_uint(b, 4, 2, true);
  p.planes = static_cast<int>(read_uint(b, 12, 2, true));
  p.height = read_uint(b, 14, 4, true);
  p.width = read_uint(b, 18, 4, true);
  const std::uint64_t depth = read_uint(b, 22, 2, true);
  const std::uint64_t mode = read_uint(b, 24, 2, true);
  if (version != 1) {
    p.problem = version == 2 ? "PSB (large document) files are not supported" : "corrupt PSD (unknown version)";
  } else if (depth != 8 && depth != 16) {
    p.problem = "PSD with " + std::to_string(depth) + "-bit samples is not supported (only 8 and 16)";
  } else if (mode != kGray && mode != kRgb) {
    p.problem = "PSD in colour mode " + std::to_string(mode) + " is not supported (only grayscale and RGB)";
  } else if (p.planes < static_cast<int>(mode) || p.planes > 56) {
    p.problem = "corrupt PSD (" + std::to_string(p.planes) + " channels in colour mode " + std::to_string(mode) + ")";
  } else if (p.width == 0 || p.height == 0) {
    p.problem = "image has no pixels (width or height 0)";
  } else if (p.width > INT_MAX || p.height > INT_MAX) {
    p.problem = "PSD of " + std::to_string(p.width) + "x" + std::to_string(p.height) + " is not supported (sides up to 2^31 - 1)";
  }
  if (!p.problem.empty()) return p;
  p.channels = std::min(p.planes, static_cast<int>(mode) + 1);
  p.sample_bytes = static_cast<int>(depth / 8);
  std::uint64_t at = 26;
  for (int section = 0; section < 3; ++section) {  // colour mode data, image resources, layers and masks
    if (!has(b, at, 4)) {
      p.problem = "truncated PSD (sections cut short)";
      return p;
    }
    at += 4 + read_uint(b, at, 4, true);
  }
  if (!has(b, at, 2)) {
    p.problem = "truncated PSD (no image data)";
    return p;
  }
  const std::uint64_t compression = read_uint(b, at, 2, true);
  if (compression > 1) {
    p.problem = "PSD with " + std::string(compression == 2 || compression == 3 ? "ZIP" : "unknown") +
                " compression is not supported (only raw and PackBits)";
  }
  p.rle = compression == 1;
  p.data_at = at + 2;
  return p;
}

std::uint64_t row_bytes(const PsdLayout& p) { return p.width * static_cast<std::uint64_t>(p.sample_bytes); }

// One PackBits row: a header byte n, then n + 1 literal bytes (n < 128) or
// one byte repeated 257 - n times (n > 128); 128 is a no-op. The row must
// fill exactly.
void unpack_bits(const std::uint8_t* in, std::uint64_t in_len, std::uint8_t* out, std::uint64_t out_len) {
  std::uint64_t i = 0, o = 0;
  while (o < out_len) {
    if (i >= in_len) throw CodecFailure("corrupt PSD (a compressed row ends early)");
    const int n = in[i++];
    if (n == 128) continue;
    const std::uint64_t count = n < 128 ? n + 1u : 257u - n;
    if (count > out_len - o) throw CodecFailure("corrupt PSD (a compressed row runs past its width)");
    if (n < 128) {
      if (count > in_len - i) throw CodecFailure("corrupt PSD (a compressed row ends early)");
      std::copy_n(in + i, count, out + o);
      i += count;
    } else {
      if (i >= in_len) throw CodecFailure("corrupt PSD (a compressed row ends early)");
      std::fill_n(out + o, count, in[i++]);
    }
    o += count;
  }
}

// Photoshop stores a transparent merged image composited over white; this
// takes the white back out, exactly: c' = M - (M - c) * M / a rounded half
// up, for alpha a strictly between 0 and M, clamped at 0 (a colour darker
// than its alpha allows).
template <class T>
void remove_white_matte(Image& img) {
  const std::uint64_t m = static_cast<std::uint64_t>(max_sample(img.depth));
  T* v = img.samples<T>();
  const int colours = img.channels - 1;
  for (std::size_t px = 0; px < img.pixel_count(); ++px, v += img.channels) {
    const std::uint64_t a = v[colours];
    if (a == 0 || a == m) continue;
    for (int c = 0; c < colours; ++c) {
      const std::uint64_t ink = (m - v[c]) * m;
      const std::uint64_t lost = (2 * ink + a - 1) / (2 * a);  // ceil(ink / a - 1/2): c' rounds half up
      v[c] = static_cast<T>(lost >= m ? 0 : m - lost);
    }
  }
}

}  // namespace

std::optional<ImageShape> psd_shape(const Bytes& file) {
  const PsdLayout p = layout_of(file);
  if (!p.problem.empty()) return std::nullopt;
  // Raw: every sample. PackBits: a 2-byte count per row of every plane, and
  // at least 2 bytes for each 128 of a row.
  const std::uint64_t rows = p.height * static_cast<std::uint64_t>(p.planes);
  const std::uint64_t per_row = p.rle ? 2 + 2 * ((row_bytes(p) + 127) / 128) : row_bytes(p);
  std::uint64_t least = 0;
  if (__builtin_mul_overflow(rows, per_row, &least) || __builtin_add_overflow(least, p.data_at, &least)) least = UINT64_MAX;
  return ImageShape{p.width, p.height, p.channels, p.sample_bytes == 2 ? Depth::U16 : Depth::U8, least};
}

Image decode_psd(const Bytes& file, std::uint64_t max_pixels) {
  const PsdLayout p = layout_of(file);
  if (!p.problem.empty()) throw CodecFailure(p.problem);
  check_pixel_limit({p.width, p.height}, max_pixels);
  const std::optional<ImageShape> shape = psd_shape(file);
  if (file.size() < shape->min_bytes) throw CodecFailure("truncated PSD");

  Image img(static_cast<int>(p.width), static_cast<int>(p.height), p.channels,
            p.sample_bytes == 2 ? Depth::U16 : Depth::U8);
  const std::uint64_t row_len = row_bytes(p);
  Bytes row(row_len);
  std::uint64_t at = p.data_at;
  const std::uint64_t counts_at = at;  // PackBits: the rows' lengths, every plane's, first
  if (p.rle) at += 2 * p.height * static_cast<std::uint64_t>(p.planes);
  for (int c = 0; c < p.channels; ++c) {
    for (std::uint64_t y = 0; y < p.height; ++y) {
      const std::uint8_t* src = nullptr;
      if (p.rle) {
        const std::uint64_t len = read_uint(file, counts_at + 2 * (static_cast<std::uint64_t>(c) * p.height + y), 2, true);
        if (!has(file, at, len)) throw CodecFailure("truncated PSD");
        unpack_bits(file.data() + at, len, row.data(), row_len);
        at += len;
        src = row.data();
      } else {
        src = file.data() + at;  // within the file: min_bytes covered every raw sample
        at += row_len;
      }
      std::uint8_t* out = img.data.data() + y * img.row_bytes() + static_cast<std::uint64_t>(c) * p.sample_bytes;
      const std::size_t step = static_cast<std::size_t>(img.channels) * p.sample_bytes;
      for (std::uint64_t x = 0; x < p.width; ++x, out += step, src += p.sample_bytes) {
        if (p.sample_bytes == 1) {
          *out = *src;
        } else {
          const std::uint16_t v = static_cast<std::uint16_t>(src[0] << 8 | src[1]);  // stored big-endian
          std::copy_n(reinterpret_cast<const std::uint8_t*>(&v), 2, out);
        }
      }
    }
  }
  if (img.has_alpha()) {
    if (img.depth == Depth::U16)
      remove_white_matte<std::uint16_t>(img);
    else
      remove_white_matte<std::uint8_t>(img);
  }
  return img;
}

}  // namespace gpuimg
