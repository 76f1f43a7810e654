#include "tolerance.hpp"

#include <cstring>

#include "anti_alias.hpp"

namespace gpuimg {

Forgiven forgive(const Image& expected, Image& actual, bool ignore_aa) {
  Forgiven out;
  if (!ignore_aa) return out;
  const std::size_t px = expected.channels * bytes_per_sample(expected.depth);
  const auto differs = [&](std::size_t i) {
    return std::memcmp(expected.data.data() + i * px, actual.data.data() + i * px, px) != 0;
  };
  for (int y = 0; y < expected.height; ++y)
    for (int x = 0; x < expected.width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * expected.width + x;
      if (differs(i) && (anti_aliased(expected, actual, x, y) || anti_aliased(actual, expected, x, y)))
        out.anti_aliased.push_back(i);
    }
  // Copied only now: the detector reads both images as they were.
  for (const std::size_t i : out.anti_aliased)
    std::memcpy(actual.data.data() + i * px, expected.data.data() + i * px, px);
  return out;
}

}  // namespace gpuimg
