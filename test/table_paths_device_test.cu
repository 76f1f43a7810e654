// The table pass's paths (kernels/table_paths.hpp) launched directly,
// against a plain loop over random tables: a table a colour channel (so
// that a channel taken for another shows) or one they share, alpha kept.
// At 8 bits, sizes that end inside a 48-byte group, inside a 12 KiB chunk
// of the stream, or go round its ring of 12 chunks a block; at 16 bits,
// inside a group of 8 or 24 samples, and one wave of blocks going round
// the image many times.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
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

struct Path {
  const char* name;
  TablePath path;
  int bytes;  // the depth it takes
};
constexpr Path kPaths[] = {{"stream8", TablePath::stream8, 1},
                           {"grid8", TablePath::grid8, 1},
                           {"bulk16", TablePath::bulk16, 2},
                           {"copied16", TablePath::copied16, 2},
                           {"global16", TablePath::global16, 2}};

// Tables in TableData's layout: a random one for each colour channel, or
// one they share; at 16 bits with one table, that table again as 16-bit
// entries from kPacked16At.
std::vector<std::int32_t> random_tables(int channels, int bytes, bool shared, std::mt19937& rng) {
  const int colour = channels == 2 || channels == 4 ? channels - 1 : channels;
  const int max = bytes == 1 ? 255 : 65535, tables = shared ? 1 : colour;
  std::vector<std::int32_t> data = {shared ? kTableShared : kTablePerChannel};
  for (int i = 0; i < tables * (max + 1); ++i) data.push_back(static_cast<std::int32_t>(rng() % (max + 1)));
  if (bytes == 2 && tables == 1) {
    data[0] |= kTablePacked16;
    data.resize(kPacked16At);
    for (int v = 0; v <= max; v += 2)
      data.push_back(static_cast<std::int32_t>(std::uint32_t(data[1 + v]) | std::uint32_t(data[2 + v]) << 16));
  }
  return data;
}

// Where the device runs the path; the test then fails on what it gives.
template <class T>
void expect_path_matches_loop(const Path& path, int width, int height, int channels, bool shared,
                              std::uint32_t seed) {
  SCOPED_TRACE(std::string(path.name) + ", " + std::to_string(width) + "x" + std::to_string(height) + "x" +
               std::to_string(channels) + (shared ? ", one table" : ", a table a channel"));
  std::mt19937 rng(seed);
  const std::vector<std::int32_t> data = random_tables(channels, sizeof(T), shared, rng);
  const std::size_t samples = std::size_t(width) * height * channels, bytes = samples * sizeof(T);
  std::vector<T> in(samples), want(samples), got(samples);
  for (auto& v : in) v = static_cast<T>(rng());
  const TableData tables{data.data(), sizeof(T) == 1 ? 255 : 65535};
  for (std::size_t k = 0; k < samples; ++k) {
    const int c = static_cast<int>(k % channels);
    want[k] = is_alpha(c, channels) ? in[k] : static_cast<T>(tables.table(c)[in[k]]);
  }
  DeviceBuffer src(bytes, "the input"), dst(bytes, "the output"), table(data.size() * sizeof(std::int32_t), "tables");
  ASSERT_EQ(cudaMemcpy(src.get(), in.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(table.get(), data.data(), data.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice),
            cudaSuccess);
  CudaStage stage{};
  stage.src = src.get(), stage.dst = dst.get(), stage.in = stage.out = Shape{width, height, channels, sizeof(T)};
  stage.data = static_cast<const std::int32_t*>(table.get()), stage.host_data = data.data();
  ASSERT_EQ(launch_lookup_path(stage, path.path), cudaSuccess);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(got.data(), dst.get(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  std::size_t first = samples;
  for (std::size_t k = 0; k < samples && first == samples; ++k)
    if (got[k] != want[k]) first = k;
  EXPECT_EQ(first, samples) << "sample " << first << " of " << samples << ": got " << int(got[first]) << ", want "
                            << int(want[first]) << " (input " << int(in[first]) << ")";
}

// The paths this device runs, of one depth; a path it does not run is
// named, so that a GPU where one never runs shows in the log.
std::vector<Path> paths(int bytes) {
  TableDevice device{};
  EXPECT_EQ(table_device(device), cudaSuccess);
  std::vector<Path> out;
  for (const Path& p : kPaths) {
    if (p.bytes != bytes) continue;
    if (table_path_runs(p.path, device))
      out.push_back(p);
    else
      std::printf("  %s: not run on this device\n", p.name);
  }
  return out;
}

// Sizes around a group (48 bytes) and a chunk (12288), fewer chunks than
// SMs, and a 1920x1080 RGB image, whose last 3,072 samples are no chunk.
TEST(GpuTablePaths, EightBitMatchLoopAtGroupAndChunkEdges) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 700;
  for (const Path& path : paths(1))
    for (int channels = 1; channels <= 4; ++channels)
      for (auto [w, h] : {std::pair{1, 1}, {5, 3}, {47, 1}, {49, 1}, {12288 / channels, 1}, {12288 / channels + 1, 1},
                          {37, 23}, {257, 131}, {1920, 1080}})
        for (bool shared : {false, true}) {
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          expect_path_matches_loop<std::uint8_t>(path, w, h, channels, shared, image_seed);
        }
}

// On a GPU of 132 SMs: every block round its ring at least once (14 or 15
// chunks a block at gray, 59 or 60 at RGBA), the image ending inside a
// chunk; and 13 chunks a block exactly, the ring and one more, no tail.
TEST(GpuTablePaths, EightBitMatchLoopRoundTheRing) {
  GPUIMG_REQUIRE_GPU();
  for (const Path& path : paths(1))
    for (int channels = 1; channels <= 4; ++channels) {
      expect_path_matches_loop<std::uint8_t>(path, 6007, 4001, channels, false, 800 + channels);
      expect_path_matches_loop<std::uint8_t>(path, 12288 / 4, 132 * 13 * 4 / channels, channels, channels % 2 == 0,
                                             810 + channels);
    }
}

// Sizes around a group (8 samples, 24 at 3 and 6 bytes a pixel), one
// block's threads, and images that take many rounds of one wave. The
// shared-memory paths take one table: a shared one, or gray's.
TEST(GpuTablePaths, SixteenBitMatchLoop) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 900;
  for (const Path& path : paths(2))
    for (int channels = 1; channels <= 4; ++channels)
      for (auto [w, h] : {std::pair{1, 1}, {7, 1}, {9, 1}, {23, 1}, {25, 3}, {1024, 3}, {1920, 1080}, {6007, 4001}})
        for (bool shared : {false, true}) {
          const std::uint32_t image_seed = seed++;
          if (path.path != TablePath::global16 && !shared && channels > 2) continue;
          if (!sweep_takes(image_seed)) continue;
          expect_path_matches_loop<std::uint16_t>(path, w, h, channels, shared, image_seed);
        }
}

}  // namespace
}  // namespace gpuimg::test
