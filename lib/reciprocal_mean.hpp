#pragma once
// The blur's rounded mean (sum + n/2) / n (ops/blur.hpp), without an integer
// division per sample: trunc((sum + n/2 + 1/2) * (1/n)) in float or double,
// which the compiler vectorises. Adding 1/2 keeps the true quotient at least
// 1/(2n) away from every integer, so a small enough rounding error cannot
// move it across one.
//
// Double is exact for every blur: sums and numerators stay below 2^43, so
// they convert exactly, and the product's relative error is at most 2^-52,
// under 2^-36 absolute for quotients up to 65536, while 1/(2n) >= 2^-28 for
// n <= 8193^2. Float has 24 bits, and is used only where exact() says so
// (8-bit images up to R = 81, 16-bit up to R = 5): it converts and
// multiplies twice as many samples per vector instruction as double.
#include <cstdint>

#include "pixel.hpp"

namespace gpuimg {

template <class F> struct ReciprocalMean {
  std::uint64_t n;
  F half, inv;  // n/2 + 1/2 and 1/n, each rounded to F

  explicit ReciprocalMean(std::uint64_t count)
      : n(count), half(static_cast<F>(count / 2) + F(0.5)), inv(F(1) / static_cast<F>(count)) {}

  // Sum is int32_t (a vector of them converts in one instruction), int64_t
  // or, for exact(), uint64_t.
  template <class Sum> Sum operator()(Sum sum) const { return static_cast<Sum>((static_cast<F>(sum) + half) * inv); }

  // Whether this gives (sum + n/2) / n for every sum in [0, max_sum]. The
  // map is monotone: each conversion and operation rounds monotonically.
  bool exact(std::uint64_t max_sum) const { return matches_rounded_mean(*this, n, max_sum); }
};

}  // namespace gpuimg
