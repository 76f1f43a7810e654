// --convolve on the CPU backend: kernels of every shape the op takes, on
// both of its paths, against the plain double loop of the README's
// definition (bit for bit) and cv::filter2D, on images smaller and larger
// than the kernel, every depth and channel count; the exact path's integer
// rounding against the double division it stands for; and which kernels
// take that path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "backend.hpp"
#include "convolve_kernels.hpp"
#include "convolve_mma.hpp"
#include "image_compare.hpp"
#include "oracles.hpp"
#include "run_one.hpp"
#include "pipeline.hpp"
#include "plan.hpp"
#if GPUIMG_WITH_OPENCV
#include "convolve_checks.hpp"
#endif

namespace gpuimg::test {
namespace {

// 1x1, a row, a column, odd sizes, and images smaller than 31x31.
std::vector<std::pair<int, int>> sizes() { return {{1, 1}, {37, 1}, {1, 41}, {33, 17}, {2, 3}, {70, 45}}; }

TEST(Convolve, EveryKernelMatchesTheLoopAndFilter2D) {
  std::uint32_t seed = 300;
  for (const std::string& kernel : convolve_kernels()) {
    const OpRecord rec = parse_stage("convolve", {kernel});
    const Convolve::Params& p = rec.get<Convolve>();
    for (Depth d : {Depth::U8, Depth::U16})
      for (auto [w, h] : sizes())
        for (int channels = 1; channels <= 4; ++channels) {
          const Image in = random_image(w, h, channels, d, seed++);
          SCOPED_TRACE(kernel + " on " + shape(in));
          const Image got = run_one(in, rec);
          EXPECT_TRUE(same_samples(Oracle<Convolve>::expected(in, p), got)) << "oracle: reference loop";
#if GPUIMG_WITH_OPENCV
          EXPECT_TRUE(matches_filter2d(in, p, got));
#endif
        }
  }
}

// Ties go away from zero: (10 + 11) / 2 = 10.5 becomes 11, on the exact
// path through a negative sum too, and on the double one.
TEST(Convolve, RoundsHalfAwayFromZero) {
  Image in(3, 1, 1, Depth::U8);
  const std::uint8_t row[3] = {10, 200, 11};
  std::copy(row, row + 3, in.samples<std::uint8_t>());
  const Image out = run_one(in, parse_stage("convolve", {"3x1:1,0,1"}));
  EXPECT_EQ(out.samples<std::uint8_t>()[1], 11);  // (10 + 11) / 2
  EXPECT_EQ(out.samples<std::uint8_t>()[0], 105);  // (10 + 200) / 2
  const Image negated = run_one(in, parse_stage("convolve", {"3x1:-1,0,-1"}));
  EXPECT_EQ(negated.samples<std::uint8_t>()[1], 11);
  const Image halves = run_one(in, parse_stage("convolve", {"3x1:0.5,0,0.5"}));
  EXPECT_EQ(halves.samples<std::uint8_t>()[1], 11);
}

// Decimal weights meant to cancel add up in double to a rounding error, not
// 0 (eight -0.1 and 0.8: 2.8e-17); S / s would make every edge white, so s
// counts as 0 below 10^-12 of the weights' magnitudes, and S is the sample.
TEST(Convolve, WeightsThatCancelAreNotDivided) {
  Image in(3, 1, 1, Depth::U8);
  const std::uint8_t row[3] = {10, 60, 20};
  std::copy(row, row + 3, in.samples<std::uint8_t>());
  const Image edge = run_one(in, parse_stage("convolve", {"3x1:-0.5,1,-0.5"}));  // sums to 0 exactly
  EXPECT_EQ(edge.samples<std::uint8_t>()[1], 45);                               // 60 - (10 + 20) / 2
  // s = -2.8e-17 in double: divided, 13 would be 0 and -10 (clamped to 0) 255.
  const Image cancelled = run_one(in, parse_stage("convolve", {"3x1:-0.1,0.3,-0.2"}));
  EXPECT_EQ(cancelled.samples<std::uint8_t>()[1], 13);  // -1 + 18 - 4
  EXPECT_EQ(cancelled.samples<std::uint8_t>()[0], 0);   // -1 + 3 - 12
  // A sum small but meant, 2.5e-7 of the weights' magnitudes: divided.
  const Image small = run_one(in, parse_stage("convolve", {"3x1:-1,2.000001,-1"}));
  EXPECT_EQ(small.samples<std::uint8_t>()[1], 255);  // 90.00006 / 1e-6
  EXPECT_EQ(small.samples<std::uint8_t>()[0], 0);    // -49.99999 / 1e-6
}

ConvolveSums sums_for(const std::string& kernel, int bytes) {
  const Pipeline planned = plan_pipeline({parse_stage("convolve", {kernel})}, Shape{4, 4, 1, bytes});
  return Convolve::sums(stage_data(planned, 0).data());
}

// Integer weights whose magnitudes add up to A with A * max < 2^24 take the
// exact path; any other weight, or a larger A, the double arithmetic.
TEST(Convolve, WhichKernelsTakeTheExactPath) {
  EXPECT_TRUE(sums_for(ones(31, 31), 1).exact);
  EXPECT_TRUE(sums_for(ones(15, 17), 2).exact);  // A = 255
  EXPECT_TRUE(sums_for("1x3:128,0,128", 2).exact);
  EXPECT_FALSE(sums_for("1x3:128,1,128", 2).exact);
  EXPECT_TRUE(sums_for("1x3:128,1,128", 1).exact);
  EXPECT_TRUE(sums_for("1x3:-32896,0,32896", 1).exact);  // A * 255 = 2^24 - 256
  EXPECT_FALSE(sums_for("1x3:-32897,0,32897", 1).exact);
  EXPECT_FALSE(sums_for("1x1:0.5", 1).exact);
  EXPECT_TRUE(sums_for("1x1:65536", 1).exact);
  EXPECT_FALSE(sums_for("1x1:65536", 2).exact);
  const ConvolveSums negative = sums_for("3x1:-1,-2,-3", 1);
  EXPECT_TRUE(negative.negate);
  EXPECT_EQ(negative.divisor, 6);
  EXPECT_EQ(sums_for("3x1:-1,0,1", 1).divisor, 0);
}

MmaWeights mma_for(const std::string& kernel, int width, int channels, int bytes = 1) {
  const OpRecord rec = parse_stage("convolve", {kernel});
  const Shape in{width, 3, channels, bytes};
  return mma_convolve_weights(in, rec.get<Convolve>(), Convolve::stage_data(rec.get<Convolve>(), in).data());
}

// The GPU's tensor cores (convolve_mma.cu) take images whose rows are whole
// words, on the exact path, up to 7x7, with weights that are bytes, signed
// or unsigned, and at most 8 bytes either side along a row.
TEST(Convolve, WhichStagesTakeTheTensorCores) {
  EXPECT_EQ(mma_for(ones(5, 5), 4, 1), MmaWeights::signed_bytes);
  EXPECT_EQ(mma_for(ones(5, 5), 3, 4), MmaWeights::signed_bytes);  // reach 2 x 4 = 8
  EXPECT_EQ(mma_for(ones(7, 7), 4, 2), MmaWeights::signed_bytes);  // 3 x 2 = 6
  EXPECT_EQ(mma_for(ones(7, 1), 4, 3), MmaWeights::none);          // 3 x 3 = 9
  EXPECT_EQ(mma_for(ones(1, 7), 4, 3), MmaWeights::signed_bytes);  // the reach is along rows only
  EXPECT_EQ(mma_for(ones(9, 9), 4, 1), MmaWeights::none);          // past 7x7
  EXPECT_EQ(mma_for(ones(5, 5), 2, 1, 2), MmaWeights::signed_bytes);  // 16-bit: 2 x 2 bytes
  EXPECT_EQ(mma_for(ones(7, 7), 2, 1, 2), MmaWeights::signed_bytes);  // 3 x 2
  EXPECT_EQ(mma_for(ones(5, 5), 2, 2, 2), MmaWeights::signed_bytes);  // 2 x 4
  EXPECT_EQ(mma_for(ones(3, 3), 1, 4, 2), MmaWeights::signed_bytes);  // 1 x 8
  EXPECT_EQ(mma_for(ones(5, 5), 2, 3, 2), MmaWeights::none);          // 2 x 6
  EXPECT_EQ(mma_for(ones(5, 5), 3, 1, 2), MmaWeights::none);          // rows of 6 bytes
  EXPECT_EQ(mma_for("1x3:0,255,0", 2, 1, 2), MmaWeights::unsigned_bytes);
  EXPECT_EQ(mma_for("1x3:1,255,0", 2, 1, 2), MmaWeights::unsigned_bytes);  // 256 x 65535 < 2^24
  EXPECT_EQ(mma_for("1x3:2,255,0", 2, 1, 2), MmaWeights::none);  // 257 x 65535 >= 2^24: the double path
  EXPECT_EQ(mma_for(ones(5, 5), 6, 1), MmaWeights::none);          // rows of 6 bytes
  EXPECT_EQ(mma_for(ones(5, 5), 4, 3), MmaWeights::signed_bytes);  // rows of 12
  EXPECT_EQ(mma_for("1x3:-128,1,127", 4, 1), MmaWeights::signed_bytes);
  EXPECT_EQ(mma_for("1x3:128,1,255", 4, 1), MmaWeights::unsigned_bytes);
  EXPECT_EQ(mma_for("1x3:-1,1,128", 4, 1), MmaWeights::none);
  EXPECT_EQ(mma_for("1x3:0,256,0", 4, 1), MmaWeights::none);
  EXPECT_EQ(mma_for("1x3:0.5,1,0.5", 4, 1), MmaWeights::none);  // the double path
}

// The tensor cores' operands: A, read back from the fragments as
// byte_mma.cuh lays them out, times 32 bytes of a row gives each of its 16
// output bytes the sum of that kernel row's weights times the bytes under
// them, 8 bytes after the first input; at 16 bits output j < 8 sums the low
// bytes of sample j and j + 8 the high, so that the two joined are the sum
// over the samples.
TEST(Convolve, TensorCoreOperandsMakeEachKernelRowsSums) {
  std::mt19937 rng(17);
  int taken[3] = {};  // stages that take the tensor cores, by sample bytes
  for (const std::string& kernel : {ones(5, 5), random_kernel(7, 3, -128, 127, true, 31), random_kernel(3, 5, 0, 255, true, 32),
                                    std::string("1x1:-3"), random_kernel(5, 1, -9, 9, true, 33), std::string("3x1:-128,127,0"),
                                    std::string("3x1:0,255,0")})
    for (int bytes = 1; bytes <= 2; ++bytes)
      for (int channels = 1; channels <= 4; ++channels) {
        const OpRecord rec = parse_stage("convolve", {kernel});
        const Convolve::Params& p = rec.get<Convolve>();
        const Shape in{4, 3, channels, bytes};
        const std::vector<std::int32_t> data = Convolve::stage_data(p, in);
        const MmaWeights kind = mma_convolve_weights(in, p, data.data());
        if (kind == MmaWeights::none) continue;
        ++taken[bytes];
        SCOPED_TRACE(kernel + " at " + std::to_string(channels) + " channels of " + std::to_string(bytes) + " bytes");
        const int kw = p.size.width, n = kw * p.size.height;
        ASSERT_EQ(data.size(), static_cast<std::size_t>(Convolve::fragments_at(n) + 4 * 32 * p.size.height));
        const std::vector<double>& weights = number_list(p.weights);
        for (int dy = 0; dy < p.size.height; ++dy) {
          int a[16][32] = {};
          for (int q = 0; q < 4; ++q)
            for (int lane = 0; lane < 32; ++lane)
              for (int i = 0; i < 4; ++i) {
                const auto word = static_cast<std::uint32_t>(data[Convolve::fragments_at(n) + (4 * dy + q) * 32 + lane]);
                const int byte = static_cast<int>(word >> (8 * i) & 0xff);
                a[lane / 4 + 8 * (q & 1)][lane % 4 * 4 + 16 * (q >> 1) + i] =
                    kind == MmaWeights::signed_bytes ? static_cast<std::int8_t>(byte) : byte;
              }
          std::uint8_t row[32];
          for (std::uint8_t& v : row) v = static_cast<std::uint8_t>(rng());
          const int pixel = channels * bytes;
          long long product[16];
          for (int j = 0; j < 16; ++j) {
            const int b = bytes == 1 ? j : 2 * (j % 8) + j / 8;  // the output byte, written out again
            long long expected = 0;
            product[j] = 0;
            for (int k = 0; k < 32; ++k) product[j] += static_cast<long long>(a[j][k]) * row[k];
            for (int dx = 0; dx < kw; ++dx) expected += static_cast<long long>(weights[dy * kw + dx]) * row[b + 8 + pixel * (dx - kw / 2)];
            EXPECT_EQ(product[j], expected) << "output " << j << " of kernel row " << dy;
          }
          if (bytes == 1) continue;
          for (int j = 0; j < 8; ++j) {  // the samples, little-endian: 4 before the first output
            long long expected = 0;
            for (int dx = 0; dx < kw; ++dx) {
              const int at = 2 * (j + 4 + channels * (dx - kw / 2));
              expected += static_cast<long long>(weights[dy * kw + dx]) * (row[at] + 256 * row[at + 1]);
            }
            EXPECT_EQ(product[j] + 256 * product[j + 8], expected) << "sample " << j << " of kernel row " << dy;
          }
        }
      }
  EXPECT_EQ(taken[1], 26);
  EXPECT_EQ(taken[2], 16);
}

// The exact path's integer rounding is the pinned double division's, for
// every sum S a kernel can reach: each kernel's divisor against all of
// them at 8 bits, and every S near a tie or the ends at 16 bits.
TEST(Convolve, ExactRoundingIsThePinnedDivision) {
  const auto check = [](const std::string& kernel, int bytes, bool every) {
    SCOPED_TRACE(kernel + (bytes == 1 ? " 8-bit" : " 16-bit"));
    const OpRecord rec = parse_stage("convolve", {kernel});
    const std::vector<double>& k = number_list(rec.get<Convolve>().weights);
    double a = 0, s = 0;
    for (double w : k) {
      a += std::abs(w);
      s += w;
    }
    const ConvolveSums sums = sums_for(kernel, bytes);
    ASSERT_TRUE(sums.exact);
    const long long reach = static_cast<long long>(a) * (bytes == 1 ? 255 : 65535);
    long long wrong = 0;
    const auto one = [&](long long S) {
      const int exact = bytes == 1 ? Convolve::exact_result<std::uint8_t>(std::int32_t(S), sums)
                                   : Convolve::exact_result<std::uint16_t>(std::int32_t(S), sums);
      const int pinned = bytes == 1 ? Convolve::pinned_result<std::uint8_t>(double(S), s)
                                    : Convolve::pinned_result<std::uint16_t>(double(S), s);
      if (exact != pinned && wrong++ < 5) ADD_FAILURE() << "S = " << S << ": " << exact << ", pinned " << pinned;
    };
    if (every) {
      for (long long S = -reach; S <= reach; ++S) one(S);
    } else {  // around each tie (q + 1/2) s of the sample range, and both ends
      const long long d = static_cast<long long>(std::abs(s));
      for (long long q = 0; q <= 65536 && d > 0; ++q)
        for (long long S = (2 * q + 1) * d / 2 - 2; S <= (2 * q + 1) * d / 2 + 2; ++S) one(s < 0 ? -S : S);
      for (long long S = -reach; S <= -reach + 1000; ++S) one(S);
      for (long long S = reach - 1000; S <= reach; ++S) one(S);
    }
    EXPECT_EQ(wrong, 0);
  };
  for (const std::string& kernel : {ones(5, 5), std::string("1x3:1,0,1"), std::string("3x3:-1,-1,-1,-1,-1,-1,-1,-1,-1"),
                                    std::string("3x3:0,-1,0,-1,5,-1,0,-1,0"), std::string("3x3:-1,0,1,-2,0,2,-1,0,1"),
                                    std::string("1x3:7,-3,1"), ones(31, 31), random_kernel(7, 7, -3, 12, true, 3)})
    check(kernel, 1, true);
  for (const std::string& kernel : {ones(5, 5), std::string("1x3:1,0,1"), std::string("1x3:-7,-3,-1"),
                                    std::string("1x3:128,0,128"), ones(15, 17)})
    check(kernel, 2, false);
}

}  // namespace
}  // namespace gpuimg::test
