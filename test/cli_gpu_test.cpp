// The built binary end to end on the GPU: every golden case, made on the
// CPU, must come out of --device cuda sample for sample. Skips without a
// usable GPU; scripts/gpu_suite.sh runs it where one is.
#include <gtest/gtest.h>

#include <string>

#include "gpu.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

// One suite named exactly CliGpu, with no instantiation prefix: the GPU
// script selects these tests with the filter 'CliGpu.*'.
class CliGpu : public testing::TestWithParam<GoldenCase> {};

TEST_P(CliGpu, CudaMatchesGolden) {
  GPUIMG_REQUIRE_GPU();
  expect_matches_golden(GetParam(), "cuda");
}

INSTANTIATE_TEST_SUITE_P(, CliGpu, testing::ValuesIn(read_golden_manifest().cases), golden_case_name);

// A pipeline whose CPU estimate is over CUDA's start-up and exit goes to the
// GPU, -v says why, and the result is the CPU's.
TEST_F(CliGpu, AutoChoosesCudaForAHeavyPipeline) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  std::vector<std::string> on_cpu = heavy_auto_args(tmp), automatic = on_cpu;
  on_cpu.insert(on_cpu.end(), {"--device", "cpu", tmp.file("cpu.png")});
  automatic.insert(automatic.end(), {"-v", tmp.file("auto.png")});
  const RunResult r = run_binary(automatic);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = device_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("gpuimg: device: cuda, ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("; auto: the pipeline is estimated at "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(" on the CPU, over CUDA's start-up and exit"), std::string::npos) << lines[0];
  ASSERT_EQ(run_binary(on_cpu).status, 0);
  EXPECT_TRUE(same_samples(read_image(tmp.file("cpu.png")), read_image(tmp.file("auto.png"))));
}

}  // namespace
}  // namespace gpuimg::test
