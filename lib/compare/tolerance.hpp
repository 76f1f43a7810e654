#pragma once
// Differences a comparison forgives pixel by pixel, as scope.hpp's rules
// ask: a pixel on an anti-aliased edge that moved (--ignore-aa).
#include <cstddef>
#include <vector>

#include "image.hpp"

namespace gpuimg {

struct Forgiven {
  std::vector<std::size_t> anti_aliased;  // pixel indices, in order
};

// Classifies each pixel whose samples differ in the pair (same shape), all
// on the images as given, then copies the expected samples into `actual`
// at each forgiven pixel. A differing pixel is anti-aliased when
// anti_aliased() holds for it in either image (anti_alias.hpp).
Forgiven forgive(const Image& expected, Image& actual, bool ignore_aa);

}  // namespace gpuimg
