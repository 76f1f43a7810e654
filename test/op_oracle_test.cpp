// Every op on the CPU backend against an independent oracle, over the whole
// registry-generated matrix: bit-exact.
#include <gtest/gtest.h>

#include <algorithm>

#include "backend.hpp"
#include "image_compare.hpp"
#include "op_cases.hpp"
#include "oracles.hpp"
#include "run_one.hpp"
#if GPUIMG_WITH_OPENCV
#include "convolve_checks.hpp"
#include "opencv_oracles.hpp"
#endif

namespace gpuimg::test {
namespace {

// The brute-force blur is O(R^2) per pixel: only where that stays cheap.
bool brute_force_ok(const Image& in, const Blur::Params& p) {
  return p.radius <= 8 && in.pixel_count() <= 257 * 131;
}

// How many samples of `got` lie further than `limit` from `real`.
std::size_t samples_past(const Image& got, const double* real, double limit) {
  std::size_t off = 0;
  for (std::size_t i = 0; i < got.pixel_count() * got.channels; ++i)
    if (std::abs(sample(got, i) - real[i]) > limit) ++off;
  return off;
}

void check_against_oracle(const Image& in, const OpRecord& rec) {
  const Image got = run_one(in, rec);
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    const auto& p = rec.get<Op>();
    if constexpr (std::is_same_v<Op, Blur>) {
#if GPUIMG_WITH_OPENCV
      EXPECT_TRUE(same_samples(opencv_blur(in, p.radius), got)) << "oracle: cv::boxFilter";
#endif
      if (brute_force_ok(in, p)) {
        EXPECT_TRUE(same_samples(Oracle<Blur>::brute_force(in, p), got)) << "oracle: loop";
      }
    } else {
      EXPECT_TRUE(same_samples(Oracle<Op>::expected(in, p), got)) << "oracle: reference loop";
    }
    if constexpr (std::is_same_v<Op, Gaussian>) {
      EXPECT_EQ(samples_past(got, Oracle<Gaussian>::real(in, p.sigma).data(), Oracle<Gaussian>::bound(in.depth)), 0u)
          << "samples further than the proven bound from the double-precision Gaussian";
#if GPUIMG_WITH_OPENCV
      const cv::Mat filtered = opencv_gaussian_unrounded(in, p.sigma);
      EXPECT_EQ(samples_past(got, filtered.ptr<double>(), Oracle<Gaussian>::bound(in.depth)), 0u)
          << "samples further than the proven bound from cv::sepFilter2D";
#endif
    }
#if GPUIMG_WITH_OPENCV
    if constexpr (std::is_same_v<Op, Median>) {
      if (opencv_has_median(in, p.radius)) {
        EXPECT_TRUE(same_samples(opencv_median(in, p.radius), got)) << "oracle: cv::medianBlur";
      }
    }
    if constexpr (std::is_same_v<Op, Sharpen>) {
      // Independently of the pinned double arithmetic: every output is the
      // true value rounded to nearest, by OpenCV's filter2D.
      const cv::Mat ref = opencv_sharpen_unrounded(in, p.amount);
      const double* r = ref.ptr<double>();
      std::size_t off = 0;
      for (std::size_t i = 0; i < in.pixel_count() * in.channels; ++i)
        if (std::abs(sample(got, i) - r[i]) > 0.5 + 1e-6) ++off;
      EXPECT_EQ(off, 0u) << "samples further than 0.5 from cv::filter2D";
    }
    if constexpr (std::is_same_v<Op, Convolve>) {
      EXPECT_TRUE(matches_filter2d(in, p, got));
    }
#endif
  });
}

const bool registered = register_op_matrix("OpOracle", __FILE__, __LINE__, [] {}, check_against_oracle);

// Each stage is rounded and clamped before the next, so a pipeline equals
// its stages run one at a time.
TEST(Pipeline, EqualsItsStagesRunOneByOne) {
  const Pipeline pipeline = {parse_stage("blur", {"2"}), parse_stage("sharpen", {"0.7"}), parse_stage("invert", {}),
                             parse_stage("blur", {"1"}), parse_stage("sharpen", {"3"})};
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels) {
      const Image in = random_image(61, 29, channels, d, 99 + channels);
      Image whole = in;
      run_cpu(whole, pipeline);
      Image stepwise = in;
      for (const OpRecord& rec : pipeline) stepwise = run_one(stepwise, rec);
      EXPECT_TRUE(same_samples(stepwise, whole)) << shape(in);
    }
}

TEST(Pipeline, EmptyPipelineLeavesTheImage) {
  const Image in = random_image(5, 3, 3, Depth::U16, 7);
  Image out = in;
  run_cpu(out, {});
  EXPECT_TRUE(same_samples(in, out));
}

// --levels 25%,75% makes every result v' = 2v - M/2 exactly, a half at
// every v: each rounds up, v' = clamp(2v - (M - 1)/2), integers alone.
TEST(Levels, RoundsExactHalvesUp) {
  for (Depth d : {Depth::U8, Depth::U16}) {
    const int hi = max_sample(d);
    Image ramp(hi + 1, 1, 1, d);
    for (int v = 0; v <= hi; ++v) put(ramp, std::size_t(v), v);
    const Image out = run_one(ramp, parse_stage("levels", {"25%,75%"}));
    int wrong = 0;
    for (int v = 0; v <= hi; ++v) wrong += sample(out, std::size_t(v)) != std::clamp(2 * v - (hi - 1) / 2, 0, hi);
    EXPECT_EQ(wrong, 0) << "of " << hi + 1 << " values at depth " << hi;
  }
}

// Ties go up, not to even: a change of rounding rule fails here by name.
TEST(Sharpen, RoundsHalfUp) {
  Image in(3, 1, 1, Depth::U8);
  const std::uint8_t row[3] = {10, 10, 9};
  std::copy(row, row + 3, in.samples<std::uint8_t>());
  // x=1: 10 + 0.5 * (40 - 10 - 10 - 10 - 9) = 10.5 -> 11; x=2: 9 + 0.5 * (36 - 9 - 9 - 10 - 9) = 8.5 -> 9.
  const Image out = run_one(in, parse_stage("sharpen", {"0.5"}));
  EXPECT_EQ(out.samples<std::uint8_t>()[0], 10);
  EXPECT_EQ(out.samples<std::uint8_t>()[1], 11);
  EXPECT_EQ(out.samples<std::uint8_t>()[2], 9);
}

TEST(Blur, RadiusLargerThanTheImageAveragesWithReplicatedEdges) {
  Image in(2, 1, 1, Depth::U8);
  in.samples<std::uint8_t>()[0] = 0;
  in.samples<std::uint8_t>()[1] = 255;
  // R = 4096, 2R+1 = 8193 columns: pixel 0 sees 4097 zeros and 4096 x 255.
  const Image out = run_one(in, parse_stage("blur", {"4096"}));
  EXPECT_EQ(out.samples<std::uint8_t>()[0], (4096 * 255 * 8193ULL + 8193ULL * 8193 / 2) / (8193ULL * 8193));
  EXPECT_EQ(out.samples<std::uint8_t>()[1], (4097 * 255 * 8193ULL + 8193ULL * 8193 / 2) / (8193ULL * 8193));
}

}  // namespace
}  // namespace gpuimg::test
