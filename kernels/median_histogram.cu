// The median of 8-bit images past the networks' radii: Huang's sliding
// histogram, turned to run down the columns. Each thread owns one sample
// column (one channel of one pixel column) over a band of rows and keeps
// its window's 256 counts in shared memory. Moving down a row takes out the
// 2R + 1 samples of the row leaving the window and puts in those of the row
// entering it: O(R) work an output, where a selection network's grows as
// R^4. The median is tracked as on the CPU (lib/cpu_median.cpp): m and the
// count of samples under it follow the samples that leave and enter, then m
// steps to the new median, in photographs and noise alike a few values
// away.
#include <algorithm>
#include <cstdint>

#include "median_paths.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 64;
// A thread's 256 counts (at most 31^2 = 961 each) take 16 bits, two to a
// word: word i of thread t sits at i * kThreads + t, so a warp's threads
// touch 32 different banks whatever values they count.
constexpr int kWords = 128;
// Rows a band at least: a band starts by counting its whole first window.
constexpr int kMinBand = 64;

__device__ __forceinline__ int count_at(const std::uint32_t* counts, int v) {
  return static_cast<int>(counts[(v >> 1) * kThreads] >> ((v & 1) * 16) & 0xffffu);
}

// Increments need no atomicity (the counts are the thread's own), but an
// atomic add whose result goes unused does not wait for the shared memory
// round trip, where a load, add and store would wait once per sample.
__device__ __forceinline__ void add(std::uint32_t* counts, int v) {
  atomicAdd(&counts[(v >> 1) * kThreads], 1u << ((v & 1) * 16));
}
__device__ __forceinline__ void remove(std::uint32_t* counts, int v) {
  atomicSub(&counts[(v >> 1) * kThreads], 1u << ((v & 1) * 16));
}

__global__ void __launch_bounds__(kThreads)
    median_histogram_kernel(const std::uint8_t* __restrict__ src, std::uint8_t* __restrict__ dst, int width,
                            int height, int channels, int radius, int band_len) {
  __shared__ std::uint32_t shared_counts[kWords * kThreads];
  const int row_len = width * channels;
  const int j = blockIdx.x * kThreads + threadIdx.x;
  if (j >= row_len) return;  // nothing below synchronises the block
  std::uint32_t* counts = shared_counts + threadIdx.x;
  const int x = j / channels, c = j - x * channels;
  const int y0 = blockIdx.y * band_len, y1 = min(y0 + band_len, height);
  const int rank = Median::median_rank(radius);
  // The window's columns, clamped into the image: pixel x + dx at column dx + R.
  const auto at = [&](int y, int dx) {
    return static_cast<int>(__ldg(src + static_cast<std::size_t>(clamp_index(y, height)) * row_len +
                                  clamp_index(x + dx, width) * channels + c));
  };

  for (int i = 0; i < kWords; ++i) counts[i * kThreads] = 0;
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) add(counts, at(y0 + dy, dx));
  int m = 0, below = 0;  // the window's samples under m
  for (int y = y0;; ++y) {
    while (below > rank) below -= count_at(counts, --m);
    while (below + count_at(counts, m) <= rank) below += count_at(counts, m++);
    dst[static_cast<std::size_t>(y) * row_len + j] = static_cast<std::uint8_t>(m);
    if (y + 1 == y1) break;
    for (int dx = -radius; dx <= radius; ++dx) {
      const int leaving = at(y - radius, dx), entering = at(y + radius + 1, dx);
      remove(counts, leaving);
      add(counts, entering);
      below += (entering < m) - (leaving < m);
    }
  }
}

}  // namespace

cudaError_t launch_median_histogram(const CudaStage& s, int radius) {
  if (s.in.bytes != 1) return cudaErrorInvalidValue;
  const int row_len = s.in.width * s.in.channels;
  const int band_len = std::max({kMinBand, 4 * (2 * radius + 1), (s.in.height + kMaxGridY - 1) / kMaxGridY});
  const dim3 grid((row_len + kThreads - 1) / kThreads, (s.in.height + band_len - 1) / band_len);
  median_histogram_kernel<<<grid, kThreads, 0, s.stream>>>(static_cast<const std::uint8_t*>(s.src),
                                                           static_cast<std::uint8_t*>(s.dst), s.in.width,
                                                           s.in.height, s.in.channels, radius, band_len);
  return cudaGetLastError();
}

}  // namespace gpuimg
