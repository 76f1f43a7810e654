// compare and golden on the GPU: SSIM from the CUDA kernel equals the CPU
// loop's to 1e-6 (the other metrics are host sums on either device), and
// goldens made on one backend pass on the other. Skips without a usable
// GPU; suites start with "Gpu" for the GPU script's filter.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "comparison.hpp"
#include "gpu.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

TEST(GpuCompare, SsimMatchesTheCpuToOneMillionth) {
  GPUIMG_REQUIRE_GPU();
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (const auto& [w, h] : {std::pair{1, 1}, {1, 300}, {300, 1}, {33, 17}, {640, 480}}) {
        const Image a = random_image(w, h, channels, depth, 5 + channels);
        Image b = random_image(w, h, channels, depth, 50 + channels);
        SCOPED_TRACE(shape(a));
        const Comparison cpu = compare_images(a, b, Backend::cpu, Ssim::compute);
        const Comparison gpu = compare_images(a, b, Backend::cuda, Ssim::compute);
        for (int c = 0; c < channels; ++c) EXPECT_NEAR(gpu.channels[c].ssim, cpu.channels[c].ssim, 1e-6) << c;
        EXPECT_NEAR(gpu.overall.ssim, cpu.overall.ssim, 1e-6);
        EXPECT_EQ(gpu.overall.max_diff, cpu.overall.max_diff);
        EXPECT_EQ(gpu.overall.psnr, cpu.overall.psnr);
      }
}

TEST(GpuCompare, CompareRunsOnCuda) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  const std::string scene = (data_dir() / "scene.png").string(), blurred = (tmp / "b.png").string();
  ASSERT_EQ(run_binary({scene, "--blur", "1", "--device", "cpu", blurred}).status, 0);
  const RunResult r = run_binary({"compare", scene, blurred, "--json", "--device", "cuda"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("\"device\": \"cuda\""), std::string::npos) << r.out;
}

TEST(GpuGolden, CpuGoldensPassOnTheGpu) {
  GPUIMG_REQUIRE_GPU();
  const RunResult r = run_binary({"golden", "check", (golden_dir() / "cases.txt").string(), "--device", "cuda"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(GpuGolden, GpuGoldensPassOnTheCpu) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  // The project's manifest, its inputs one folder up as there.
  fs::create_directory(tmp / "golden");
  for (const GoldenCase& c : read_golden_manifest().cases)
    if (!fs::exists(tmp / fs::path(c.input).filename()))
      fs::copy_file(c.input, tmp / fs::path(c.input).filename());
  fs::copy_file(golden_dir() / "cases.txt", tmp / "golden" / "cases.txt");
  const std::string manifest = (tmp / "golden" / "cases.txt").string();
  RunResult r = run_binary({"golden", "update", manifest, "--device", "cuda"});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

}  // namespace
}  // namespace gpuimg::test
