#pragma once
// The CPU backend's box blur: the mean over the (2R+1)x(2R+1) window with
// replicated borders, rounded half up, exactly as ops/blur.hpp defines it.
#include <cstdint>

namespace gpuimg {

// src and dst hold height rows of width * channels samples and do not
// overlap. threads: at most this many at once (0: one per hardware thread).
template <class T> void blur_cpu(const T* src, T* dst, int width, int height, int channels, int radius, int threads);

}  // namespace gpuimg
