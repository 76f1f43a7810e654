#pragma once
// The CPU reference for a resize: kernels/resample.hpp's per-sample
// arithmetic over lib/resample_plan.hpp's tables, in plain loops. 8-bit
// results are Pillow 9.4's Image.resize to the byte; docs/resize.md has the
// definition, the 16-bit one included.
#include "image.hpp"
#include "resample.hpp"

namespace gpuimg {

// `in` resized to out_w x out_h (both at least 1) with `filter`: 1 to 4
// channels, 8 or 16 bits, the same layout out. threads: at most this many
// at once (0: one per hardware thread). Throws std::invalid_argument for a
// size under 1 or an empty input.
Image resize_cpu(const Image& in, int out_w, int out_h, ResizeFilter filter, int threads = 0);

}  // namespace gpuimg
