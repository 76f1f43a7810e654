// The 8-bit table pass's two paths (kernels/table_paths.hpp) launched
// directly, against a plain loop over random tables: a table a colour
// channel (so that a channel taken for another shows) or one they share,
// alpha kept, at sizes that end inside a 48-byte group, inside a 12 KiB
// chunk of the stream, or go round its ring of 12 chunks a block.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cuda_resources.hpp"
#include "gpu.hpp"
#include "pixel.hpp"
#include "table_paths.hpp"
#include "tables.hpp"

namespace gpuimg::test {
namespace {

using Launcher = cudaError_t (*)(const CudaStage&);

// Tables in TableData's layout: a random one for each colour channel, or
// one they share.
std::vector<std::int32_t> random_tables(int channels, bool shared, std::mt19937& rng) {
  const int colour = channels == 2 || channels == 4 ? channels - 1 : channels;
  std::vector<std::int32_t> data = {shared ? kTableShared : kTablePerChannel};
  for (int i = 0; i < (shared ? 1 : colour) * 256; ++i) data.push_back(static_cast<std::int32_t>(rng() % 256));
  return data;
}

void expect_path_matches_loop(Launcher launch, int width, int height, int channels, bool shared, std::uint32_t seed) {
  SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(channels) +
               (shared ? ", one table" : ", a table a channel"));
  std::mt19937 rng(seed);
  const std::vector<std::int32_t> data = random_tables(channels, shared, rng);
  const std::size_t bytes = std::size_t(width) * height * channels;
  std::vector<std::uint8_t> in(bytes), want(bytes), got(bytes);
  for (auto& b : in) b = static_cast<std::uint8_t>(rng());
  const TableData tables{data.data(), 255};
  for (std::size_t k = 0; k < bytes; ++k) {
    const int c = static_cast<int>(k % channels);
    want[k] = is_alpha(c, channels) ? in[k] : static_cast<std::uint8_t>(tables.table(c)[in[k]]);
  }
  DeviceBuffer src(bytes, "the input"), dst(bytes, "the output"), table(data.size() * sizeof(std::int32_t), "tables");
  ASSERT_EQ(cudaMemcpy(src.get(), in.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(table.get(), data.data(), data.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice),
            cudaSuccess);
  CudaStage stage{};
  stage.src = src.get(), stage.dst = dst.get(), stage.in = stage.out = Shape{width, height, channels, 1};
  stage.data = static_cast<const std::int32_t*>(table.get()), stage.host_data = data.data();
  ASSERT_EQ(launch(stage), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(got.data(), dst.get(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  std::size_t first = bytes;
  for (std::size_t k = 0; k < bytes && first == bytes; ++k)
    if (got[k] != want[k]) first = k;
  EXPECT_EQ(first, bytes) << "sample " << first << " of " << bytes << ": got " << int(got[first]) << ", want "
                          << int(want[first]) << " (input " << int(in[first]) << ")";
}

// Both paths where the device streams; the grid-stride one everywhere.
std::vector<std::pair<const char*, Launcher>> paths() {
  bool streams = false;
  EXPECT_EQ(streams_lookup8(streams), cudaSuccess);
  std::vector<std::pair<const char*, Launcher>> out = {{"grid", launch_lookup8_grid}};
  if (streams) out.emplace_back("stream", launch_lookup8_stream);
  return out;
}

// Sizes around a group (48 bytes) and a chunk (12288), fewer chunks than
// SMs, and a 1920x1080 RGB image, whose last 3,072 samples are no chunk.
TEST(GpuTablePaths, MatchLoopAtGroupAndChunkEdges) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 700;
  for (const auto& [name, launch] : paths())
    for (int channels = 1; channels <= 4; ++channels)
      for (auto [w, h] : {std::pair{1, 1}, {5, 3}, {47, 1}, {49, 1}, {12288 / channels, 1}, {12288 / channels + 1, 1},
                          {37, 23}, {257, 131}, {1920, 1080}})
        for (bool shared : {false, true}) {
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          SCOPED_TRACE(name);
          expect_path_matches_loop(launch, w, h, channels, shared, image_seed);
        }
}

// On a GPU of 132 SMs: every block round its ring at least once (14 or 15
// chunks a block at gray, 59 or 60 at RGBA), the image ending inside a
// chunk; and 13 chunks a block exactly, the ring and one more, no tail.
TEST(GpuTablePaths, MatchLoopRoundTheRing) {
  GPUIMG_REQUIRE_GPU();
  for (const auto& [name, launch] : paths())
    for (int channels = 1; channels <= 4; ++channels) {
      SCOPED_TRACE(name);
      expect_path_matches_loop(launch, 6007, 4001, channels, false, 800 + channels);
      expect_path_matches_loop(launch, 12288 / 4, 132 * 13 * 4 / channels, channels, channels % 2 == 0,
                               810 + channels);
    }
}

}  // namespace
}  // namespace gpuimg::test
