// The tensor cores' convolution (kernels/convolve_mma.cu) launched directly.
// The backend tests show that the stages convolve_mma.hpp admits give the
// CPU's bytes, but so would a launch that fell back to the small tiles
// without a word (a build without byte mma, a check that declines too
// much). Here a GPU that has byte mma must take the path, and still give
// the CPU's bytes; a buffer off a word must be declined.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <string>
#include <tuple>
#include <vector>

#include "convolve_kernels.hpp"
#include "convolve_mma.hpp"
#include "convolve_paths.hpp"
#include "cuda_resources.hpp"
#include "gpu.hpp"
#include "image_compare.hpp"
#include "pipeline.hpp"
#include "plan.hpp"
#include "random_image.hpp"
#include "run_one.hpp"

namespace gpuimg::test {
namespace {

bool gpu_has_byte_mma() {
  int device = 0, major = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 8;
}

// The stage's buffers and data on the device, `offset` bytes into each
// image buffer; whether the path ran, and what it wrote.
struct Launched {
  bool ran = false;
  Image out;
};

Launched launch(const Image& in, const OpRecord& rec, std::size_t offset) {
  const Convolve::Params& p = rec.get<Convolve>();
  const Shape shape = shape_of(in);
  const std::vector<std::int32_t> data = Convolve::stage_data(p, shape);
  const std::size_t bytes = in.data.size();
  DeviceBuffer src(bytes + offset, "the input"), dst(bytes + offset, "the output");
  DeviceBuffer device_data(data.size() * sizeof(std::int32_t), "the stage data");
  auto* src_at = static_cast<std::uint8_t*>(src.get()) + offset;
  auto* dst_at = static_cast<std::uint8_t*>(dst.get()) + offset;
  Launched l{false, in};
  EXPECT_EQ(cudaMemcpy(src_at, in.data.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(device_data.get(), data.data(), data.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice),
            cudaSuccess);
  CudaStage stage{};
  stage.src = src_at, stage.dst = dst_at, stage.in = stage.out = shape;
  stage.data = static_cast<const std::int32_t*>(device_data.get()), stage.host_data = data.data();
  EXPECT_EQ(launch_mma_convolve(stage, p, l.ran), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  if (l.ran) EXPECT_EQ(cudaMemcpy(l.out.data.data(), dst_at, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  return l;
}

// Signed and unsigned weights, every kernel height it takes (1, 3, 5, 7),
// and each channel count the kernel's reach admits at each depth, on rows
// past one tile of 256 bytes with a cut last tile.
TEST(GpuConvolveMma, RunsWhereTheGpuHasByteMma) {
  GPUIMG_REQUIRE_GPU();
  if (!gpu_has_byte_mma()) GTEST_SKIP() << "this GPU has no byte mma (compute capability below 8.0)";
  const std::vector<std::tuple<std::string, int, Depth>> cases = {
      {ones(5, 5), 1, Depth::U8},
      {ones(5, 5), 3, Depth::U8},
      {ones(5, 5), 4, Depth::U8},
      {random_kernel(7, 7, -20, 20, true, 23), 2, Depth::U8},
      {random_kernel(3, 3, 0, 255, true, 24), 3, Depth::U8},
      {random_kernel(1, 3, -128, 127, true, 25), 4, Depth::U8},
      {"5x1:1,4,6,4,1", 3, Depth::U8},
      {ones(5, 5), 1, Depth::U16},
      {ones(7, 7), 1, Depth::U16},
      {"5x3:1,-2,3,-2,1,2,4,-6,4,2,1,-2,3,-2,1", 2, Depth::U16},
      {"3x1:0,255,0", 3, Depth::U16},
      {"3x1:-128,127,0", 3, Depth::U16},
      {random_kernel(3, 3, -40, 40, true, 43), 4, Depth::U16},
      {"1x3:-128,0,-127", 4, Depth::U16}};
  std::uint32_t seed = 5300;
  for (const auto& [kernel, channels, depth] : cases) {
    const Image in = random_image(depth == Depth::U8 ? 344 : 172, 35, channels, depth, seed++);
    const OpRecord rec = parse_stage("convolve", {kernel});
    SCOPED_TRACE(kernel + " on " + shape(in));
    ASSERT_NE(mma_convolve_weights(shape_of(in), rec.get<Convolve>(),
                                   Convolve::stage_data(rec.get<Convolve>(), shape_of(in)).data()),
              MmaWeights::none);
    const Launched l = launch(in, rec, 0);
    ASSERT_TRUE(l.ran) << "the tensor cores' path declined a stage it admits on a GPU with byte mma";
    EXPECT_TRUE(same_samples(run_one(in, rec), l.out)) << "tensor cores vs CPU backend";
  }
}

// Word alignment is the condition: 4 bytes in, the path runs; at 16 bits
// a buffer 2 bytes in, whole samples but off a word, is declined too.
TEST(GpuConvolveMma, DeclinesBuffersOffAWord) {
  GPUIMG_REQUIRE_GPU();
  const OpRecord rec = parse_stage("convolve", {ones(5, 5)});
  for (Depth depth : {Depth::U8, Depth::U16}) {
    const Image in = random_image(64, 8, 1, depth, 5400);
    SCOPED_TRACE(shape(in));
    for (std::size_t offset : {1, 2, 3}) EXPECT_FALSE(launch(in, rec, offset).ran) << "offset " << offset;
    if (!gpu_has_byte_mma()) continue;
    const Launched l = launch(in, rec, 4);
    EXPECT_TRUE(l.ran) << "offset 4";
    EXPECT_TRUE(same_samples(run_one(in, rec), l.out));
  }
}

}  // namespace
}  // namespace gpuimg::test
