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

TEST_F(CliGpu, AutoChoosesCuda) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  const RunResult r =
      run_binary({(data_dir() / "scene.png").string(), "-v", "--blur", "3", "--invert", (tmp / "out.png").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("gpuimg: device: cuda"), std::string::npos) << r.err;
  EXPECT_TRUE(same_samples(read_image((golden_dir() / "scene_blur3_invert.png").string()),
                           read_image((tmp / "out.png").string())));
}

}  // namespace
}  // namespace gpuimg::test
