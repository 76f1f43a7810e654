#pragma once
// The blur's rounded mean (sum + n/2) / n for an n known only at run time,
// as a multiply-high and a shift: two GPU instructions where an integer
// division is about twenty.
//
// With m = ceil(2^k / n), floor(x * m / 2^k) = floor(x / n) for every
// x < X once X * n <= 2^k: the excess x * (m n - 2^k) / (n 2^k) is below
// 1/n, and x / n lies at least 1/n below the next integer. The smallest
// such k >= 32 gives m < 2 X, so m fits 32 bits while X < 2^31 (and n > 1:
// for n = 1, k = 32 and m = 2^32).
#include <cstdint>
#include <optional>

#include "pixel.hpp"

namespace gpuimg {

struct MeanDivider {
  std::uint32_t half;   // n / 2
  std::uint32_t magic;  // m
  std::uint32_t shift;  // k - 32

  // The divider for means of n > 1 samples, each at most max_sample, or
  // none where the numerators reach 2^31.
  static std::optional<MeanDivider> for_mean(std::uint64_t n, std::uint64_t max_sample) {
    return for_sums(n, n * max_sample);
  }

  // The same for any sums up to max_sum (a convolution's, whose quotients
  // may pass the largest sample).
  static std::optional<MeanDivider> for_sums(std::uint64_t n, std::uint64_t max_sum) {
    const std::uint64_t numerators = max_sum + n / 2 + 1;  // X: every sum + n/2 is below it
    if (n < 2 || numerators >= (std::uint64_t{1} << 31)) return std::nullopt;
    int k = 32;
    while ((std::uint64_t{1} << k) < numerators * n) ++k;
    const std::uint64_t m = ((std::uint64_t{1} << k) + n - 1) / n;
    return MeanDivider{static_cast<std::uint32_t>(n / 2), static_cast<std::uint32_t>(m),
                       static_cast<std::uint32_t>(k - 32)};
  }

  // floor((sum + n/2) m / 2^32): the mean itself where shift is 0.
  GPUIMG_HD std::uint32_t unshifted(std::uint32_t sum) const {
#if defined(__CUDA_ARCH__)
    return __umulhi(sum + half, magic);
#else
    return static_cast<std::uint32_t>((std::uint64_t{sum + half} * magic) >> 32);
#endif
  }

  GPUIMG_HD std::uint32_t operator()(std::uint32_t sum) const { return unshifted(sum) >> shift; }
};

}  // namespace gpuimg
