// Batches on the GPU: the lanes give the CPU's bytes, --devices picks and
// checks the GPUs, and with two GPUs both take images. The CliGpuBatch tests
// need one GPU (the device script runs them); MultiGpuBatch needs two and
// skips otherwise, so it is run by name on a machine that has them.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "backend.hpp"
#include "batch_tree.hpp"
#include "cli.hpp"
#include "error.hpp"
#include "gpu.hpp"

namespace gpuimg::test {
namespace {

TEST(BatchDevices, ParsedAsAllOrDistinctNumbers) {
  EXPECT_TRUE(parse_devices("all").all);
  EXPECT_EQ(parse_devices("0").listed, std::vector<int>{0});
  EXPECT_EQ(parse_devices("2,0,1").listed, (std::vector<int>{2, 0, 1}));
  for (const char* bad : {"", "x", "0,", ",0", "-1", "0,,1", " 0", "0x1", "All", "1.5"})
    EXPECT_THROW(parse_devices(bad), UsageError) << "'" << bad << "'";
  try {
    parse_devices("1,0,1");
    FAIL() << "a GPU listed twice was taken";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "--devices: GPU 1 is listed twice");
  }
}

TEST(BatchDevices, WithoutAGpuExitThreeAndWriteNothing) {
  std::string why;
  if (cuda_usable(&why)) GTEST_SKIP() << "a GPU is here";
  TempDir tmp;
  make_input_tree(tmp / "in");
  const RunResult r = run_binary({"in/", "--invert", "out/", "--devices", "all"}, {tmp.path()});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_EQ(r.err, "gpuimg: --devices: " + why + "\n");
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

// Images that differ in size, channels and depth, so a lane that reused a
// buffer wrongly or swapped two images shows.
void make_mixed_images(const fs::path& dir, int count) {
  fs::create_directories(dir);
  for (int i = 0; i < count; ++i) {
    const Depth depth = i % 5 == 4 ? Depth::U16 : Depth::U8;
    char name[32];
    std::snprintf(name, sizeof name, "%03d.png", i);
    write_image((dir / name).string(), random_image(40 + 37 * (i % 7), 30 + 23 * (i % 5), 1 + i % 4, depth, 100 + i));
  }
}

const std::vector<std::string> kGpuOps = {"--blur", "2", "--sharpen", "0.5", "--invert"};

// Runs the mixed folder on the CPU and with `gpu_args`; both must succeed
// with the same bytes. Returns the GPU run's stderr.
std::string expect_same_as_cpu(const TempDir& tmp, int count, const std::vector<std::string>& gpu_args) {
  const RunResult cpu = run_binary(args(args({"in/"}, kGpuOps), {"cpu/", "--device", "cpu"}), {tmp.path()});
  const RunResult gpu = run_binary(args(args({"in/"}, kGpuOps), args({"gpu/"}, gpu_args)), {tmp.path()});
  EXPECT_EQ(cpu.status, 0) << cpu.err;
  EXPECT_EQ(gpu.status, 0) << gpu.err;
  EXPECT_TRUE(has(gpu.err, summary(count, 0, 0))) << gpu.err;
  const std::set<std::string> outputs = files_under(tmp / "gpu");
  EXPECT_EQ(outputs.size(), static_cast<std::size_t>(count));
  EXPECT_EQ(outputs, files_under(tmp / "cpu"));
  for (const std::string& rel : outputs) EXPECT_EQ(read_bytes(tmp / "gpu" / rel), read_bytes(tmp / "cpu" / rel)) << rel;
  return gpu.err;
}

TEST(CliGpuBatch, CudaOutputsEqualCpuOutputs) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  make_input_tree(tmp / "in");
  const RunResult cpu = run_binary({"in/", "--blur", "2", "--sharpen", "0.5", "--device", "cpu", "cpu/"}, {tmp.path()});
  const RunResult gpu = run_binary({"in/", "--blur", "2", "--sharpen", "0.5", "--device", "cuda", "gpu/"}, {tmp.path()});
  EXPECT_EQ(cpu.status, 1) << cpu.err;
  EXPECT_EQ(gpu.status, 1) << gpu.err;
  EXPECT_TRUE(has(gpu.err, summary(4, 1, 0))) << gpu.err;
  ASSERT_EQ(files_under(tmp / "gpu"), std::set<std::string>(kGood.begin(), kGood.end()));
  for (const std::string& rel : kGood) EXPECT_EQ(read_bytes(tmp / "gpu" / rel), read_bytes(tmp / "cpu" / rel)) << rel;
}

TEST(CliGpuBatch, LanesGiveTheCpuBytesForMixedImages) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  make_mixed_images(tmp / "in", 30);
  expect_same_as_cpu(tmp, 30, {"--device", "cuda", "--jobs", "3"});
}

// One GPU, or the per-GPU line of several.
TEST(CliGpuBatch, DevicesAllGivesTheCpuBytes) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  make_mixed_images(tmp / "in", 30);
  const std::string err = expect_same_as_cpu(tmp, 30, {"--devices", "all"});
  EXPECT_EQ(has(err, "gpuimg: GPU 0: "), cuda_device_count() > 1) << err;
}

TEST(CliGpuBatch, AGpuThatIsNotThereIsAUsageError) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  make_input_tree(tmp / "in");
  const RunResult r = run_binary({"in/", "--invert", "out/", "--devices", "0,99"}, {tmp.path()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "gpuimg: --devices: there is no GPU 99; this machine has ")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

TEST(MultiGpuBatch, BothGpusTakeImagesAndGiveTheCpuBytes) {
  GPUIMG_REQUIRE_GPU();
  if (cuda_device_count() < 2) GTEST_SKIP() << "needs two GPUs";
  TempDir tmp;
  make_mixed_images(tmp / "in", 60);
  const std::string err = expect_same_as_cpu(tmp, 60, {"--devices", "0,1"});
  std::smatch m;
  const std::string per_gpu_line = "gpuimg: GPU 0: ([0-9]+) images; GPU 1: ([0-9]+) images\n";
  ASSERT_TRUE(std::regex_search(err, m, std::regex(per_gpu_line))) << err;
  EXPECT_GT(std::stoi(m[1]), 0) << err;
  EXPECT_GT(std::stoi(m[2]), 0) << err;
  EXPECT_EQ(std::stoi(m[1]) + std::stoi(m[2]), 60) << err;
}

}  // namespace
}  // namespace gpuimg::test
