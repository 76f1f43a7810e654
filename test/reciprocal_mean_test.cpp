// The blur's rounded mean by reciprocal (lib/reciprocal_mean.hpp): exact()
// against an exhaustive comparison, and double exact for every blur.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "ops/blur.hpp"
#include "reciprocal_mean.hpp"

namespace gpuimg::test {
namespace {

std::uint64_t window(int radius) { return std::uint64_t(2 * radius + 1) * std::uint64_t(2 * radius + 1); }

template <class F> bool exhaustively_exact(const ReciprocalMean<F>& mean, std::uint64_t max_sum) {
  for (std::uint64_t s = 0; s <= max_sum; ++s)
    if (mean(s) != rounded_mean<std::uint64_t>(s, mean.n)) return false;
  return true;
}

// exact() checks only the steps of the quotient; it must agree with checking
// every sum, also for maps made wrong on purpose by moving 1/n a few units
// in the last place either way.
TEST(ReciprocalMean, ExactAgreesWithAnExhaustiveCheck) {
  int wrong = 0;
  for (int radius : {1, 2, 3, 7, 20, 63, 64, 90}) {
    const std::uint64_t n = window(radius), max_sum = n * 255;
    for (int ulps = -3; ulps <= 3; ++ulps) {
      ReciprocalMean<float> mean(n);
      for (int i = 0; i < std::abs(ulps); ++i) mean.inv = std::nextafter(mean.inv, ulps < 0 ? 0.0f : 1.0f);
      const bool expected = exhaustively_exact(mean, max_sum);
      EXPECT_EQ(mean.exact(max_sum), expected) << "R = " << radius << ", 1/n moved " << ulps << " ulps";
      wrong += !expected;
    }
  }
  EXPECT_GT(wrong, 0) << "no map here was wrong, so the check was not tested on one";
}

TEST(ReciprocalMean, DoubleIsExactForEveryBlur) {
  for (int radius = 1; radius <= 4096; ++radius) {
    const std::uint64_t n = window(radius);
    ASSERT_TRUE(ReciprocalMean<double>(n).exact(n * 255)) << "8-bit, R = " << radius;
    // 16-bit: 65536 steps per radius, so every radius up to 256, then a spread.
    if (radius <= 256 || radius % 61 == 0 || radius == 4096) {
      ASSERT_TRUE(ReciprocalMean<double>(n).exact(n * 65535)) << "16-bit, R = " << radius;
    }
  }
}

// The radii where the CPU blur can take float, its faster path, as the
// header says.
TEST(ReciprocalMean, FloatIsExactFor8BitUpToRadius81And16BitUpTo5) {
  for (int radius = 1; radius <= 82; ++radius)
    EXPECT_EQ(ReciprocalMean<float>(window(radius)).exact(window(radius) * 255), radius <= 81) << "R = " << radius;
  for (int radius = 1; radius <= 6; ++radius)
    EXPECT_EQ(ReciprocalMean<float>(window(radius)).exact(window(radius) * 65535), radius <= 5) << "R = " << radius;
}

}  // namespace
}  // namespace gpuimg::test
