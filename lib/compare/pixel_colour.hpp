#pragma once
// A pixel's colour as the anti-aliasing detector and the --threshold
// distance read it: every layout widened to R, G, B, A (gray as R = G = B,
// no alpha as opaque), so both handle 1 to 4 channels and both depths alike.
#include <cstddef>
#include <cstdint>

#include "image.hpp"

namespace gpuimg {

struct Rgba {
  std::int64_t r, g, b, a;
};

inline Rgba pixel_rgba(const Image& img, std::size_t pixel) {
  const std::size_t at = pixel * img.channels;
  const auto s = [&](int c) -> std::int64_t {
    return img.depth == Depth::U8 ? img.samples<std::uint8_t>()[at + c] : img.samples<std::uint16_t>()[at + c];
  };
  switch (img.channels) {
    case 1:
      return {s(0), s(0), s(0), max_sample(img.depth)};
    case 2:
      return {s(0), s(0), s(0), s(1)};
    case 3:
      return {s(0), s(1), s(2), max_sample(img.depth)};
    default:
      return {s(0), s(1), s(2), s(3)};
  }
}

// One colour sample composited over white, times max: c a + max (max - a),
// exact in integers (below 2^33 at 16 bits).
inline std::int64_t over_white(std::int64_t c, std::int64_t a, std::int64_t max) { return c * a + max * (max - a); }

}  // namespace gpuimg
