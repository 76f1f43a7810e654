#pragma once
// The picture `compare --diff` writes, for a person to read at a glance.
#include "comparison.hpp"

namespace gpuimg {

// Colours of the picture, exposed for the tests.
constexpr int kDiffDim = 3;                             // the expected image's luma is divided by this
constexpr unsigned char kDiffBox[3] = {0, 255, 255};    // the bounding box: cyan
constexpr unsigned char kDiffAntiAliased[3] = {0, 96, 255};  // pixels left out by --ignore-aa: blue

// 8-bit RGB, the size of `expected`: the expected image in gray (Rec. 601
// luma of R,G,B; alpha ignored; 16-bit scaled to 8) divided by kDiffDim;
// over it every differing pixel in a colour from yellow (a difference of 1)
// to red (the full range), on a log scale so that 1 is as visible as 255;
// each pixel of cmp.anti_aliased in blue; and a 1-pixel cyan rectangle just
// outside the differing pixels' bounding box, clipped to the image, drawn
// only on pixels that neither differ nor are anti-aliased.
// `cmp` is compare_images(expected, actual); shapes must match.
Image diff_image(const Image& expected, const Image& actual, const Comparison& cmp);

// The colour of a pixel whose largest difference is `diff` of `max_value`.
void diff_colour(int diff, int max_value, unsigned char rgb[3]);

}  // namespace gpuimg
