// The median beyond the generic matrix (op_oracle_test.cpp): every radius
// on the CPU backend against the reference loop, the histogram path's
// tracked median across hard edges and full-range 16-bit noise, a
// pipeline, and the refused radii at the command line.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "backend.hpp"
#include "image_compare.hpp"
#include "oracles.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

Image median_cpu(const Image& in, int radius) {
  Image out = in;
  run_cpu(out, {parse_stage("median", {std::to_string(radius)})});
  return out;
}

// Both CPU paths, on both sides of Median::kMaxCpuNetworkRadius, and every
// radius the GPU's paths split at.
TEST(MedianCpu, EveryRadiusOnOddShapes) {
  std::uint32_t seed = 10;
  for (int radius = 1; radius <= 15; ++radius)
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{1, 9}, std::pair{13, 1}, std::pair{23, 17}}) {
          const Image in = random_image(w, h, channels, d, seed++);
          SCOPED_TRACE("R=" + std::to_string(radius) + " " + shape(in));
          EXPECT_TRUE(same_samples(Oracle<Median>::expected(in, {radius}), median_cpu(in, radius)));
        }
}

// A radius past the image: every window holds the whole image, its edge
// rows and columns many times over.
TEST(MedianCpu, RadiusLargerThanTheImageWeighsTheEdges) {
  Image in(2, 1, 1, Depth::U8);
  in.samples<std::uint8_t>()[0] = 10;
  in.samples<std::uint8_t>()[1] = 200;
  // R = 1: pixel 0 sees columns 0, 0, 1 (10, 10, 200), pixel 1 sees 0, 1, 1.
  const Image small = median_cpu(in, 1);
  EXPECT_EQ(small.samples<std::uint8_t>()[0], 10);
  EXPECT_EQ(small.samples<std::uint8_t>()[1], 200);
  // R = 15: 16 of the 31 columns are column 0 for pixel 0, 15 for pixel 1.
  const Image large = median_cpu(in, 15);
  EXPECT_EQ(large.samples<std::uint8_t>()[0], 10);
  EXPECT_EQ(large.samples<std::uint8_t>()[1], 200);
}

// Black and white squares: the tracked median jumps across the whole range
// where a window crosses an edge, both ways, in rows and between them.
TEST(MedianCpu, HistogramsFollowHardEdges) {
  for (Depth d : {Depth::U8, Depth::U16})
    for (int radius : {Median::kMaxCpuNetworkRadius + 1, 9, 15}) {
      Image in(97, 61, 2, d);
      for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x)
          for (int c = 0; c < 2; ++c)
            put(in, (static_cast<std::size_t>(y) * in.width + x) * 2 + c,
                ((x / 11 + y / 7 + c) % 2) * max_sample(d));
      SCOPED_TRACE("R=" + std::to_string(radius) + " " + shape(in));
      EXPECT_TRUE(same_samples(Oracle<Median>::expected(in, {radius}), median_cpu(in, radius)));
    }
}

// Noise over the whole 16-bit range moves the median by thousands of values
// from one window to the next, across the histogram's blocks of 256.
TEST(MedianCpu, FullRange16BitNoise) {
  Image in(150, 40, 1, Depth::U16);
  std::mt19937 rng(8);
  for (std::size_t i = 0; i < in.pixel_count(); ++i) in.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(rng());
  for (int radius : {4, 15}) EXPECT_TRUE(same_samples(Oracle<Median>::expected(in, {radius}), median_cpu(in, radius)));
}

TEST(MedianCpu, PipelineEqualsItsStagesRunOneByOne) {
  const Pipeline pipeline = {parse_stage("median", {"1"}), parse_stage("invert", {}), parse_stage("median", {"5"}),
                             parse_stage("blur", {"1"}), parse_stage("median", {"2"})};
  for (Depth d : {Depth::U8, Depth::U16}) {
    const Image in = random_image(45, 38, 3, d, 21);
    Image whole = in;
    run_cpu(whole, pipeline);
    Image stepwise = in;
    for (const OpRecord& rec : pipeline) run_cpu(stepwise, {rec});
    EXPECT_TRUE(same_samples(stepwise, whole));
  }
}

TEST(MedianCli, RefusedRadiiAreOneLineExitTwoAndNoOutput) {
  for (const char* bad : {"0", "16", "1.5", "-1", "abc"}) {
    SCOPED_TRACE(bad);
    TempDir tmp;
    const RunResult r =
        run_binary({(data_dir() / "scene.png").string(), "--median", bad, (tmp / "out.png").string()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, std::string("gpuimg: --median: R must be an integer from 1 to 15, got '") + bad +
                         "' (see gpuimg --help)\n");
    EXPECT_FALSE(fs::exists(tmp / "out.png"));
  }
}

}  // namespace
}  // namespace gpuimg::test
