#pragma once
// The shape of an image between two stages: what each op's plan takes and
// returns, and what every stage record carries to the GPU.
#include <cstdint>

namespace gpuimg {

struct Shape {
  std::int32_t width, height;
  std::int32_t channels;  // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
  std::int32_t bytes;     // per sample: 1 or 2

  std::uint64_t pixels() const { return std::uint64_t(width) * std::uint64_t(height); }
  std::uint64_t byte_size() const { return pixels() * std::uint64_t(channels) * std::uint64_t(bytes); }
  bool operator==(const Shape& o) const {
    return width == o.width && height == o.height && channels == o.channels && bytes == o.bytes;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }
};

}  // namespace gpuimg
