// The one-pass blurs past the fused radii (kernels/box_blur_strips.cu and
// box_blur_wide.cu) launched directly and compared with the CPU backend, at
// shapes chosen around their strips and bands. The CUDA backend takes the
// wide blur only for images too large for L2, so the awkward small shapes
// reach it only this way.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "box_blur_paths.hpp"
#include "cuda_resources.hpp"
#include "gpu.hpp"
#include "image_compare.hpp"
#include "pipeline.hpp"

namespace gpuimg::test {
namespace {

using Launcher = cudaError_t (*)(const CudaStage&, int);

void expect_launch_matches_cpu(Launcher launch, const Image& in, int radius) {
  Image cpu = in, gpu = in;
  run_cpu(cpu, {parse_stage("blur", {std::to_string(radius)})});
  const std::size_t bytes = in.data.size();
  DeviceBuffer src(bytes, "the input"), dst(bytes, "the output");
  const Shape shape{in.width, in.height, in.channels, 1};
  DeviceBuffer scratch(Blur::scratch_bytes({radius}, shape), "the scratch");
  ASSERT_EQ(cudaMemcpy(src.get(), in.data.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  CudaStage stage{};
  stage.src = src.get(), stage.dst = dst.get(), stage.in = stage.out = shape, stage.scratch = scratch.get();
  ASSERT_EQ(launch(stage, radius), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(gpu.data.data(), dst.get(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(same_samples(cpu, gpu)) << "blur kernel vs CPU backend";
}

// Each strip count's boundary (a strip outputs all but R of its pixels at
// either end), windows past the image on both sides, and several row bands,
// for every channel count and radii from the first past the fused pass to
// the last this path takes.
TEST(GpuBlurWide, MatchesCpuAtStripEdges) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 400;
  for (int r : {9, 10, 37, 64, 127, 128})
    for (int channels = 1; channels <= 4; ++channels) {
      const int out = wide_strip_px(channels) - 2 * r;
      const std::vector<std::pair<int, int>> sizes = {{1, 1}, {7, 300}, {out, 37}, {out + 1, 20}, {2 * out + 1, 20}};
      for (auto [w, h] : sizes) {
        const std::uint32_t image_seed = seed++;
        if (!sweep_takes(image_seed)) continue;
        SCOPED_TRACE("R=" + std::to_string(r) + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                     std::to_string(channels));
        expect_launch_matches_cpu(launch_wide_blur, random_image(w, h, channels, Depth::U8, image_seed), r);
      }
    }
}

// The strip blur, for rows of whole words: widths at and past each strip
// count's boundary (a strip outputs a whole number of words, all but about
// R of its pixels at either end, its first staged pixel on a word), windows
// past the image on both sides, heights spanning several row bands, and a
// band of a single row; radii on both sides of the first whose bands start
// from chunk sums (32 to 48, by channel count), and of the first whose
// column sums take a word each.
TEST(GpuBlurStrips, MatchesCpuAtStripEdges) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 500;
  for (int r : {9, 31, 32, 35, 36, 37, 38, 47, 48, 64, 128, 129, 256})
    for (int channels = 1; channels <= 4; ++channels) {
      const int unit = 4 / std::gcd(channels, 4);  // pixels to a whole number of words
      const int rounding = (unit - r % unit) % unit;  // pixels staged before a window, to reach a word
      const int out = (kStripBlurSamples / channels - 2 * r - rounding) / unit * unit;
      const std::vector<std::pair<int, int>> sizes = {
          {unit, 1}, {unit, 300}, {7 * unit, 41}, {out, 37}, {out + unit, 20}, {2 * out, 9}, {2 * out + unit, 17}};
      for (auto [w, h] : sizes) {
        const std::uint32_t image_seed = seed++;
        if (!sweep_takes(image_seed)) continue;
        SCOPED_TRACE("R=" + std::to_string(r) + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                     std::to_string(channels));
        expect_launch_matches_cpu(launch_strip_blur, random_image(w, h, channels, Depth::U8, image_seed), r);
      }
    }
}

TEST(GpuBlurStrips, RefusesWhatItDoesNotTake) {
  const Shape shape{64, 64, 3, 1};
  CudaStage rgb8{};
  rgb8.in = rgb8.out = shape;
  CudaStage rgb16 = rgb8, odd_row = rgb8;
  rgb16.in.bytes = rgb16.out.bytes = 2;
  odd_row.in.width = odd_row.out.width = 63;
  EXPECT_EQ(launch_strip_blur(rgb8, Blur::kMaxFusedRadius), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strip_blur(rgb8, Blur::kMaxStripRadius + 1), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strip_blur(rgb16, 20), cudaErrorInvalidValue);
  EXPECT_EQ(launch_strip_blur(odd_row, 20), cudaErrorInvalidValue);
  // Its bands start from chunk sums, which need the stage's scratch.
  EXPECT_EQ(launch_strip_blur(rgb8, Blur::kMaxStripRadius), cudaErrorInvalidValue);
}

TEST(GpuBlurWide, RefusesWhatItDoesNotTake) {
  const Shape shape{64, 64, 3, 1};
  CudaStage rgb8{};
  rgb8.in = rgb8.out = shape;
  CudaStage rgb16 = rgb8;
  rgb16.in.bytes = rgb16.out.bytes = 2;
  EXPECT_EQ(launch_wide_blur(rgb8, Blur::kMaxFusedRadius), cudaErrorInvalidValue);
  EXPECT_EQ(launch_wide_blur(rgb8, Blur::kMaxWideRadius + 1), cudaErrorInvalidValue);
  EXPECT_EQ(launch_wide_blur(rgb16, 20), cudaErrorInvalidValue);
}

}  // namespace
}  // namespace gpuimg::test
