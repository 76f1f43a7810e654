#pragma once
// Differences a comparison forgives pixel by pixel, as scope.hpp's rules
// ask: a colour change under a perceptual threshold (--threshold), and a
// pixel on an anti-aliased edge that moved (--ignore-aa).
#include <cstddef>
#include <optional>
#include <vector>

#include "image.hpp"

namespace gpuimg {

// pixelmatch's YIQ colour difference (Kotsarenko and Ramos, "Measuring
// perceived color difference using YIQ NTSC transmission color space in
// mobile applications", 2010) of pixel `pixel` in two images of the same
// shape, as sqrt(delta / 35215): 0 for equal colours, about 1 from black to
// white. Colours are composited over white and scaled to 0..255 first;
// docs/compare.md gives the formula.
double yiq_distance(const Image& a, const Image& b, std::size_t pixel);

struct Forgiven {
  std::size_t similar = 0;                // pixels within the threshold
  std::vector<std::size_t> anti_aliased;  // pixel indices, in order
};

// Classifies each pixel whose samples differ in the pair (same shape), all
// on the images as given, then copies the expected samples into `actual`
// at each forgiven pixel: first those whose yiq_distance is at most
// `threshold`, then, of the rest, those anti_aliased() (anti_alias.hpp) in
// either image.
Forgiven forgive(const Image& expected, Image& actual, std::optional<double> threshold, bool ignore_aa);

}  // namespace gpuimg
