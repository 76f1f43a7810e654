#pragma once
// Views of a stage's input held in registers, for the CUDA dispatch kernels,
// and sample_at, which the fused blur shares with them.
// They answer at(x, y, c) like ImageView and TileView, so an op's apply() is
// the same code everywhere; every index they compute folds to a constant once
// apply() is inlined and unrolled, which keeps the samples in registers.
#include <cstdint>

#include "pixel.hpp"

namespace gpuimg {

// The sample at byte offset `byte` (a multiple of sizeof(T)) of packed words.
template <class T> GPUIMG_HD T sample_at(const std::uint32_t* words, int byte) {
  const std::uint32_t w = words[byte >> 2];
#if defined(__CUDA_ARCH__)
  // One byte permute (PRMT), where a shift and a mask take two.
  const int b = byte & 3;
  return static_cast<T>(__byte_perm(w, 0, sizeof(T) == 1 ? 0x4440 | b : 0x4400 | (b + 1) << 4 | b));
#else
  return static_cast<T>(w >> ((byte & 3) * 8));
#endif
}

// One pixel's C samples. Only for ops of halo 0, which read nothing but
// their own pixel, so (x, y) need not be looked at.
template <class T, int C> struct PixelView {
  using value_type = T;
  static constexpr int channels = C;
  const T* px;

  GPUIMG_HD T at(int, int, int c) const { return px[c]; }
};

// A window of Rows image rows by Words 32-bit words of packed samples, whose
// first sample is channel 0 of pixel (ox, oy).
template <class T, int C, int Rows, int Words> struct WordWindowView {
  using value_type = T;
  static constexpr int channels = C;
  const std::uint32_t (*words)[Words];
  int ox, oy;

  GPUIMG_HD T at(int x, int y, int c) const {
    return sample_at<T>(words[y - oy], ((x - ox) * C + c) * static_cast<int>(sizeof(T)));
  }
};

}  // namespace gpuimg
