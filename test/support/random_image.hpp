#pragma once
// Seeded random test images. A quarter of the samples are pinned to 0 or the
// maximum, so that saturation and the extremes of every sum are exercised.
#include <cstdint>
#include <random>
#include <string>

#include "image.hpp"

namespace gpuimg::test {

inline Image random_image(int width, int height, int channels, Depth depth, std::uint32_t seed) {
  Image img(width, height, channels, depth);
  std::mt19937 rng(seed);
  const int hi = max_sample(depth);
  std::uniform_int_distribution<int> value(0, hi), pick(0, 7);
  const std::size_t n = img.pixel_count() * channels;
  for (std::size_t i = 0; i < n; ++i) {
    const int kind = pick(rng);
    const int v = kind == 0 ? 0 : kind == 1 ? hi : value(rng);
    if (depth == Depth::U8)
      img.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
    else
      img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
  }
  return img;
}

// Sample i of an image of either depth, as an int.
inline int sample(const Image& img, std::size_t i) {
  return img.depth == Depth::U8 ? img.samples<std::uint8_t>()[i] : img.samples<std::uint16_t>()[i];
}

inline std::string shape(const Image& img) {
  return std::to_string(img.width) + "x" + std::to_string(img.height) + " " + describe(img.channels, img.depth);
}

}  // namespace gpuimg::test
