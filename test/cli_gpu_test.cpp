// The built binary end to end on the GPU: every golden case, made on the
// CPU, must come out of --device cuda sample for sample. Skips without a
// usable GPU; scripts/gpu_suite.sh runs it where one is.
#include <gtest/gtest.h>

#include <string>

#include "gpu.hpp"
#include "metadata.hpp"
#include "metadata_files.hpp"
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

// -v names the passes the GPU ran: the chain is one pass there, as
// the tables run in the blur's load and store; the CPU keeps its lookups.
TEST_F(CliGpu, VerboseShowsTheTablesInTheBlursPass) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  const std::vector<std::string> chain = {"--levels", "5%,95%", "--gamma", "1.8", "--blur", "3", "--invert"};
  const auto verbose_run = [&](const std::string& device) {
    std::vector<std::string> args = {(data_dir() / "scene.png").string(), "-v"};
    args.insert(args.end(), chain.begin(), chain.end());
    args.insert(args.end(), {"--device", device, tmp.file(device + ".png")});
    const RunResult r = run_binary(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.err;
  };
  const std::string gpu = verbose_run("cuda"), cpu = verbose_run("cpu");
  EXPECT_NE(gpu.find("(stages 1-4, one pass)"), std::string::npos) << gpu;
  for (const char* stage : {"stage 2: gamma", "stage 3: blur R=3", "stage 4: invert"})
    EXPECT_NE(gpu.find(std::string(stage) + std::string(" ")), std::string::npos) << gpu;
  EXPECT_NE(gpu.find("in stage 1's pass"), std::string::npos) << gpu;
  EXPECT_NE(cpu.find("(stages 1-2, one pass)"), std::string::npos) << cpu;
  EXPECT_EQ(cpu.find("stages 1-4"), std::string::npos) << cpu;
  EXPECT_TRUE(same_samples(read_image(tmp.file("cpu.png")), read_image(tmp.file("cuda.png"))));
}

// EXIF orientation is applied on the host before either backend: a turned
// input through CUDA, one image and a batch (whose lanes carry the
// metadata to the encoders), gives the CPU's file byte for byte, metadata
// included.
TEST_F(CliGpu, OrientedInputGivesTheCpuFile) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  fs::create_directory(tmp / "in");
  for (int orientation = 1; orientation <= 8; ++orientation) {
    Metadata m;
    m.icc = icc_profile(600);
    m.exif = exif_block(orientation);
    const std::string in = tmp.file("in/o" + std::to_string(orientation) + ".png");
    write_image(in, random_image(37, 19, 4, Depth::U16, orientation), WriteOptions{}, m);
    for (const std::string device : {"cpu", "cuda"})
      ASSERT_EQ(run_binary({in, "--blur", "2", "--crop", "15x30+1+2", "--device", device, tmp.file(device + ".png")}).status, 0);
    EXPECT_EQ(load(tmp.file("cpu.png")), load(tmp.file("cuda.png"))) << "orientation " << orientation;
  }
  for (const std::string device : {"cpu", "cuda"})
    ASSERT_EQ(run_binary({tmp.file("in"), "--sharpen", "1", "--device", device, tmp.file(device + "/")}).status, 0);
  for (int orientation = 1; orientation <= 8; ++orientation) {
    const std::string name = "/o" + std::to_string(orientation) + ".png";
    EXPECT_EQ(load(tmp.file("cpu") + name), load(tmp.file("cuda") + name)) << "batch, orientation " << orientation;
  }
}

}  // namespace
}  // namespace gpuimg::test
