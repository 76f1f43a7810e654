#pragma once
// Whether a pixel lies on an anti-aliased edge: the detector of pixelmatch
// (after Vysniauskas, "Anti-aliased pixel and intensity slope detector",
// 2009), written from its published description; docs/compare.md defines
// it exactly.
#include "image.hpp"

namespace gpuimg {

// Pixel (x, y) of `img` is anti-aliased when, among its 8 neighbours (fewer
// at the image's edge), at most 2 have its brightness, counting a pixel on
// the image's edge as having one more; some are darker and some brighter;
// and the darkest or the brightest (the first in row order on a tie) has 3
// or more neighbours with exactly its samples, the edge counted alike, both
// in `img` and in `other`, the image it is compared with (same shape).
// Brightness: Rec. 601 luma, 299 R + 587 G + 114 B, of the colour
// composited over white (pixel_colour.hpp), in exact integers.
bool anti_aliased(const Image& img, const Image& other, int x, int y);

}  // namespace gpuimg
