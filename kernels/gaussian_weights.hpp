#pragma once
// The pinned arithmetic of --gaussian (and --unsharp's blur), shared by both
// backends: integer weights w_0..w_r, built on the host once per plan, and
// exact sums of them. docs/gaussian.md derives the bounds quoted here.
//
// The result at a sample is round(s / 4^K), s = sum over i, j in [-r, r] of
// w_|i| w_|j| v(x + i, y + j), edges replicated: an exact integer, so the
// two passes may run in either order and give the same bytes.
#include <cmath>
#include <cstdint>
#include <vector>

#include "pixel.hpp"
#include "word_rows_fit.hpp"

namespace gpuimg {

// r = ceil(3S), 3S in double: at most 300 for S <= 100.
inline int gaussian_radius(double sigma) { return static_cast<int>(std::ceil(3 * sigma)); }

// An exact sum of one sample position, by depth. K, the weights' bits:
// 27 at 16 bits, the smallest at which docs/gaussian.md's bound keeps every
// result within 1 of the double-precision Gaussian at r = 300 (within
// 0.793); 22 at 8 bits, at which every sum, below 2^52, is exact in a
// double's significand too, should a GPU path prefer double FMA to 64-bit
// integer multiply-adds (within 0.537).
//
// Line: a one-axis sum, sum of w_|i| v_i <= max * 2^K, also the sum of two
// of them (a pair folded about the centre). add(w, x): s += w * x, exact as
// long as the w added sum to at most 2^K over x no larger than a pair of
// Lines.
template <class T> struct GaussianSums;

template <> struct GaussianSums<std::uint8_t> {
  static constexpr int kBits = 22;
  using Line = std::uint32_t;  // < 255 * 2^22 < 2^30; a pair < 2^31
  std::uint64_t s = 0;         // < 255 * 2^44 < 2^52
  GPUIMG_HD void add(std::uint32_t w, Line x) { s += std::uint64_t(w) * x; }
  GPUIMG_HD int rounded() const { return static_cast<int>((s + (std::uint64_t{1} << 43)) >> 44); }
};

// s reaches 65535 * 2^54, past 64 bits: it is kept as hi * 2^32 + lo, each
// Line split at bit 32. lo < 2^32 * 2^27 = 2^59, hi < 2^12 * 2^27.
template <> struct GaussianSums<std::uint16_t> {
  static constexpr int kBits = 27;
  using Line = std::uint64_t;  // < 2^43; a pair < 2^44
  std::uint64_t lo = 0, hi = 0;
  GPUIMG_HD void add(std::uint32_t w, Line x) {
    lo += std::uint64_t(w) * static_cast<std::uint32_t>(x);
    hi += std::uint64_t(w) * static_cast<std::uint32_t>(x >> 32);
  }
  // (hi 2^32 + lo + 2^53) >> 54: the bits of lo below 2^32 never carry
  // into a multiple of 2^54.
  GPUIMG_HD int rounded() const {
    return static_cast<int>((hi + ((lo + (std::uint64_t{1} << 53)) >> 32)) >> 22);
  }
};

// Radii the GPU's one pass takes (kernels/gaussian_fused.cu: each thread
// holds its column's 2r + 1 samples in registers); past them two passes
// through the stage's scratch (kernels/gaussian.cu).
constexpr int kMaxOnePassGaussianRadius = 12;
// Of those, the radii images with rows of whole words take through
// kernels/gaussian_words.cu, each thread keeping 2r + 2 or 2r + 4 rows
// of sums in registers.
constexpr int kMaxGaussianWordsRadius = 9;
inline bool gaussian_one_pass(int r) { return r >= 1 && r <= kMaxOnePassGaussianRadius; }
// Whether that path takes radius r on an image of this shape, tables aside
// (it takes none): what its launch checks and what the planner asks.
inline bool gaussian_word_rows(int r, const Shape& in) {
  return r >= 1 && r <= kMaxGaussianWordsRadius && word_rows::fits(in);
}

// A stage's data: r, then w_0..w_r (w_i for -i too).
constexpr int kGaussianWeightsAt = 1;

// w_i = round(2^K e_i / sum) for i = 1..r, half away from zero, with
// e_i = exp(-i^2 / (2 S^2)) and sum = e_0 + 2 (e_1 + ... + e_r), all in
// double; the centre takes the rest, w_0 = 2^K - 2 (w_1 + ... + w_r), so
// that the weights sum to exactly 2^K.
inline std::vector<std::int32_t> gaussian_weights(double sigma, int bytes_per_sample) {
  const int r = gaussian_radius(sigma);
  const int bits = bytes_per_sample == 1 ? GaussianSums<std::uint8_t>::kBits : GaussianSums<std::uint16_t>::kBits;
  std::vector<double> e(r + 1);
  double sum = 0;
  for (int i = 0; i <= r; ++i) {
    e[i] = i == 0 ? 1 : std::exp(-double(i) * i / (2 * sigma * sigma));  // 2S^2 may underflow to 0
    sum += i == 0 ? e[i] : 2 * e[i];
  }
  std::vector<std::int32_t> data(kGaussianWeightsAt + r + 1);
  data[0] = r;
  std::int64_t rest = std::int64_t{1} << bits;
  for (int i = 1; i <= r; ++i) {
    data[kGaussianWeightsAt + i] = static_cast<std::int32_t>(std::llround(std::ldexp(e[i] / sum, bits)));
    rest -= 2 * data[kGaussianWeightsAt + i];
  }
  data[kGaussianWeightsAt] = static_cast<std::int32_t>(rest);
  return data;
}

}  // namespace gpuimg
