// The blur's rounded mean by multiply-high (kernels/mean_divider.hpp) against
// integer division, at every step of the quotient for every window it
// accepts, and where it says it no longer fits.
#include <gtest/gtest.h>

#include <cstdint>

#include "mean_divider.hpp"

namespace gpuimg::test {
namespace {

std::uint64_t window(int radius) { return std::uint64_t(2 * radius + 1) * std::uint64_t(2 * radius + 1); }

// The divider is monotone in the sum (a multiply and shifts), so
// matches_rounded_mean's check of each step of the quotient covers every sum.
bool exact(const MeanDivider& d, std::uint64_t n, std::uint64_t max_sum) {
  return matches_rounded_mean([&](std::uint64_t s) { return std::uint64_t{d(static_cast<std::uint32_t>(s))}; }, n,
                              max_sum);
}

TEST(MeanDivider, ExactForEveryWindowItAccepts) {
  for (std::uint64_t max_sample : {255u, 65535u}) {
    int accepted = 0;
    for (int radius = 1; radius <= 4096; ++radius) {
      const std::uint64_t n = window(radius);
      const auto d = MeanDivider::for_mean(n, max_sample);
      if (!d) break;
      ++accepted;
      ASSERT_TRUE(exact(*d, n, n * max_sample)) << "max " << max_sample << ", R = " << radius;
    }
    // Numerators below 2^31: 8-bit windows up to R = 1449, 16-bit up to 90.
    EXPECT_EQ(accepted, max_sample == 255 ? 1449 : 90);
  }
}

TEST(MeanDivider, RefusesWhereTheNumeratorsReach2To31) {
  EXPECT_TRUE(MeanDivider::for_mean(window(1449), 255));
  EXPECT_FALSE(MeanDivider::for_mean(window(1450), 255));
  EXPECT_TRUE(MeanDivider::for_mean(window(90), 65535));
  EXPECT_FALSE(MeanDivider::for_mean(window(91), 65535));
  EXPECT_FALSE(MeanDivider::for_mean(1, 255));
}

// The check above must catch a multiplier one too small, or it tests nothing.
TEST(MeanDivider, CheckCatchesAWrongMultiplier) {
  int caught = 0;
  for (int radius : {1, 9, 25, 64, 256, 1000}) {
    const std::uint64_t n = window(radius);
    MeanDivider d = *MeanDivider::for_mean(n, 255);
    --d.magic;
    caught += !exact(d, n, n * 255);
  }
  EXPECT_EQ(caught, 6);
}

}  // namespace
}  // namespace gpuimg::test
