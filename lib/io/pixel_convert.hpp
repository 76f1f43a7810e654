#pragma once
// The pinned conversions applied when an output format cannot hold an image
// as it is (docs/formats.md lists which format gets which), and the one
// applied to CMYK JPEG inputs. They are part of the tool's contract, so each
// is exact integer arithmetic.
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "image.hpp"
#include "pixel.hpp"

namespace gpuimg {

// round(v * 255 / 65535) exactly: 65535 / 255 == 257, and v / 257 is never
// halfway between integers, so adding half the divisor rounds correctly.
inline std::uint8_t to_8bit(std::uint16_t v) { return static_cast<std::uint8_t>((v + 128u) / 257u); }

// One colour channel from a CMYK JPEG sample as libjpeg delivers it,
// inverted as Adobe writes it (255 = no ink): round(v * k / 255), computed
// exactly (v * k / 255 is never halfway between integers, 255 being odd).
// No colour management: the naive conversion, pinned so it never changes.
inline std::uint8_t inverted_cmyk_to_rgb(std::uint8_t v, std::uint8_t k) {
  return static_cast<std::uint8_t>((std::uint32_t{v} * k + 127u) / 255u);
}

namespace detail {

template <class In, class Out>
void convert_samples(const Image& src, Image& dst) {
  auto scale = [](std::uint32_t v) -> Out {
    if constexpr (sizeof(In) > sizeof(Out)) {
      return to_8bit(static_cast<std::uint16_t>(v));
    } else if constexpr (sizeof(In) < sizeof(Out)) {
      return static_cast<Out>(v * 257u);  // to_8bit's inverse: 255 to 65535
    } else {
      return static_cast<Out>(v);
    }
  };
  const In* in = src.samples<In>();
  Out* out = dst.samples<Out>();
  const int ci = src.channels, co = dst.channels;
  const bool in_color = ci >= 3, out_color = co >= 3;
  for (std::size_t p = 0, n = src.pixel_count(); p < n; ++p, in += ci, out += co) {
    if (out_color) {
      for (int c = 0; c < 3; ++c) out[c] = scale(in[in_color ? c : 0]);
    } else {
      out[0] = scale(in_color ? bt601_gray(in[0], in[1], in[2]) : in[0]);
    }
    if (dst.has_alpha()) out[co - 1] = scale(in[ci - 1]);
  }
}

}  // namespace detail

// Gray becomes RGB by repeating the value, RGB becomes gray by bt601_gray()
// (--grayscale's formula), alpha is copied or dropped, 16-bit samples
// become 8-bit by to_8bit(), and 8-bit ones 16-bit (--depth 16) as v * 257.
// Never adds alpha: no output format needs it.
inline Image convert_layout(const Image& src, int channels, Depth depth) {
  assert(!(channels % 2 == 0 && !src.has_alpha()));
  Image dst(src.width, src.height, channels, depth);
  if (src.depth == Depth::U8 && depth == Depth::U16) {
    detail::convert_samples<std::uint8_t, std::uint16_t>(src, dst);
  } else if (src.depth == Depth::U8) {
    detail::convert_samples<std::uint8_t, std::uint8_t>(src, dst);
  } else if (depth == Depth::U8) {
    detail::convert_samples<std::uint16_t, std::uint8_t>(src, dst);
  } else {
    detail::convert_samples<std::uint16_t, std::uint16_t>(src, dst);
  }
  return dst;
}

}  // namespace gpuimg
