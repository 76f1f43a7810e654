// Box blur on the GPU: the two sliding-sum passes of ops/blur.hpp. Each
// thread of the horizontal pass owns a segment of a row, each thread of the
// vertical pass one sample column over a band of rows; a segment or band is
// at least as long as the window, so the O(window) start of each costs at
// most one extra read per output.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;
constexpr int kMinRun = 64;
constexpr long long kMaxBlocks = 1 << 20;

int run_length(int radius, int extent) { return std::min(std::max(kMinRun, 2 * radius + 1), extent); }

template <class T>
__global__ void row_sums_kernel(const T* __restrict__ src, std::uint32_t* __restrict__ sums, int width, int height,
                                int channels, int radius, int seg_len, int segs_per_row) {
  const long long total = static_cast<long long>(segs_per_row) * height;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int y = static_cast<int>(i / segs_per_row);
    const int x0 = static_cast<int>(i % segs_per_row) * seg_len;
    const int x1 = min(x0 + seg_len, width);
    const size_t row = static_cast<size_t>(y) * width * channels;
    box_row_sums(src + row, width, channels, radius, x0, x1, sums + row);
  }
}

template <class T, class Acc>
__global__ void column_means_kernel(const std::uint32_t* __restrict__ sums, T* __restrict__ dst, int row_len,
                                    int height, int radius, int band_len, int bands) {
  const long long total = static_cast<long long>(row_len) * bands;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int j = static_cast<int>(i % row_len);  // neighbouring threads, neighbouring columns: coalesced
    const int y0 = static_cast<int>(i / row_len) * band_len;
    Acc acc;
    box_columns<T, Acc>(sums, row_len, height, radius, j, j + 1, y0, min(y0 + band_len, height), dst, &acc);
  }
}

int blocks_for(long long work) {
  return static_cast<int>(std::min((work + kThreads - 1) / kThreads, kMaxBlocks));
}

template <class T> cudaError_t launch(const CudaStage& s, const Blur::Params& p) {
  auto* sums = static_cast<std::uint32_t*>(s.scratch);
  const int seg = run_length(p.radius, s.width);
  const int segs = (s.width + seg - 1) / seg;
  row_sums_kernel<T><<<blocks_for(1LL * segs * s.height), kThreads, 0, s.stream>>>(
      static_cast<const T*>(s.src), sums, s.width, s.height, s.channels, p.radius, seg, segs);
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;

  const int row_len = s.width * s.channels;
  const int band = run_length(p.radius, s.height);
  const int bands = (s.height + band - 1) / band;
  const int blocks = blocks_for(1LL * row_len * bands);
  if (Blur::needs_wide_sums(p.radius, sizeof(T) == 1 ? 255 : 65535))
    column_means_kernel<T, std::uint64_t><<<blocks, kThreads, 0, s.stream>>>(
        sums, static_cast<T*>(s.dst), row_len, s.height, p.radius, band, bands);
  else
    column_means_kernel<T, std::uint32_t><<<blocks, kThreads, 0, s.stream>>>(
        sums, static_cast<T*>(s.dst), row_len, s.height, p.radius, band, bands);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_custom(OpTag<Blur>, const CudaStage& s, const Blur::Params& p) {
  return s.bytes_per_sample == 1 ? launch<std::uint8_t>(s, p) : launch<std::uint16_t>(s, p);
}

}  // namespace gpuimg
