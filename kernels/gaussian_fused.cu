// --gaussian and --unsharp in one pass, for the radii gaussian_one_pass()
// takes (gaussian_weights.hpp): no intermediate image, where the two passes
// of gaussian.cu also write and read each sample's 4- or 8-byte one-axis
// sum (12 times a copy's traffic at 8 bits; 14.7 times its time at S = 1
// on the H100). Strips overlap and bands start 2r rows early, so the loads
// are 256 / (256 - 2rC) x (64 + 2r) / 64 of the image, 1.15 at r = 3 in
// RGB, 2.2 at r = 12 in RGBA, mostly from L2.
//
// Each thread owns one sample column of a strip and walks down a band of
// rows, keeping its column's last 2r + 1 samples in registers (r is a
// template parameter, so the window and the weights stay there): each row
// costs it one load and the column's exact vertical sum. The row of those
// sums goes through shared memory, and each thread away from the strip's
// edges sums its output's window across (exact, in GaussianSums) and rounds
// once. The strip's r pixels either side only feed their neighbours: strips
// overlap by 2r pixels. The sum is the same exact integer as gaussian.cu's,
// whose passes run in the other order (gaussian_weights.hpp), so the bytes
// are the same. A fused pass's load table (PassTables, tables.hpp) applies
// to each sample as it enters a column; its store table, in StoreBlur.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>

#include "gaussian_store.cuh"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;
constexpr int kBandRows = 64;
constexpr long long kMaxBlocks = 1 << 20;

template <class T, int R, class Store>
__global__ void __launch_bounds__(kThreads)
    fused_gaussian_kernel(const T* __restrict__ src, int width, int height, int channels,
                          const std::int32_t* __restrict__ data, const std::int32_t* __restrict__ load, Store store,
                          int strips, int bands) {
  using Line = typename GaussianSums<T>::Line;
  __shared__ Line sums[2][kThreads];  // a row's vertical sums, alternate rows in alternate halves
  std::uint32_t w[R + 1];
#pragma unroll
  for (int k = 0; k <= R; ++k) w[k] = data[kGaussianWeightsAt + k];
  const int reach = R * channels, outputs = kThreads - 2 * reach;
  const long long row_len = 1LL * width * channels;
  const int t = threadIdx.x;

  for (long long item = blockIdx.x; item < static_cast<long long>(strips) * bands; item += gridDim.x) {
    const long long j = static_cast<long long>(item % strips) * outputs - reach + t;  // this thread's column
    const int y0 = static_cast<int>(item / strips) * kBandRows, y1 = min(y0 + kBandRows, height);
    // The column's pixel, edges replicated: j may lie r pixels either side of the row.
    const long long shifted = j + reach;
    const int px = clamp_index(static_cast<int>(shifted / channels) - R, width);
    const int c = static_cast<int>(shifted % channels);
    const T* column = src + static_cast<long long>(px) * channels + c;
    const std::int32_t* table = load && !is_alpha(c, channels) ? load + 1 : nullptr;
    const auto at = [&](int y) {
      const int v = column[clamp_index(y, height) * row_len];
      return table ? __ldg(table + v) : v;
    };
    int a[2 * R + 1];  // rows y - R .. y + R of the column
#pragma unroll
    for (int m = 1; m <= 2 * R; ++m) a[m] = at(y0 - R - 1 + m);
    for (int y = y0; y < y1; ++y) {
#pragma unroll
      for (int m = 0; m < 2 * R; ++m) a[m] = a[m + 1];
      a[2 * R] = at(y + R);
      Line v = Line(w[0]) * a[R];
#pragma unroll
      for (int k = 1; k <= R; ++k) v += Line(w[k]) * (a[R - k] + a[R + k]);
      Line* row = sums[y & 1];
      row[t] = v;
      __syncthreads();
      if (t >= reach && t < kThreads - reach && j < row_len) {
        GaussianSums<T> acc;
        acc.add(w[0], row[t]);
#pragma unroll
        for (int k = 1; k <= R; ++k) acc.add(w[k], row[t - k * channels] + row[t + k * channels]);
        store(y, j, acc.rounded());
      }
    }
    __syncthreads();  // the next item's first rows write both halves
  }
}

// A strip's outputs are its 256 columns less r pixels each side: at r = 12
// and 4 channels, 160 of them.
template <class T, int R, class Store> cudaError_t launch(const CudaStage& s, const Store& store) {
  const int outputs = kThreads - 2 * R * s.in.channels;
  if (s.in.channels < 1 || outputs <= 0) return cudaErrorInvalidValue;
  const long long row_len = 1LL * s.in.width * s.in.channels;
  const long long strips = (row_len + outputs - 1) / outputs;
  const int bands = (s.in.height + kBandRows - 1) / kBandRows;
  if (strips > INT_MAX) return cudaErrorInvalidValue;
  const int blocks = static_cast<int>(std::min(strips * bands, kMaxBlocks));
  fused_gaussian_kernel<T, R, Store><<<blocks, kThreads, 0, s.stream>>>(
      static_cast<const T*>(s.src), s.in.width, s.in.height, s.in.channels, s.data, s.tables.load, store,
      int(strips), bands);
  return cudaGetLastError();
}

template <class T, class Store, int... R>
cudaError_t launch_radius(const CudaStage& s, int r, const Store& store, std::integer_sequence<int, R...>) {
  cudaError_t e = cudaErrorInvalidValue;
  ((r == R + 1 ? (e = launch<T, R + 1>(s, store), true) : false) || ...);
  return e;
}

}  // namespace

template <class T, class Store> cudaError_t launch_fused_gaussian(const CudaStage& s, int r, const Store& store) {
  return launch_radius<T>(s, r, store, std::make_integer_sequence<int, kMaxOnePassGaussianRadius>{});
}

template cudaError_t launch_fused_gaussian<std::uint8_t>(const CudaStage&, int, const StoreBlur<std::uint8_t>&);
template cudaError_t launch_fused_gaussian<std::uint16_t>(const CudaStage&, int, const StoreBlur<std::uint16_t>&);
template cudaError_t launch_fused_gaussian<std::uint8_t>(const CudaStage&, int, const StoreUnsharp<std::uint8_t>&);
template cudaError_t launch_fused_gaussian<std::uint16_t>(const CudaStage&, int, const StoreUnsharp<std::uint16_t>&);

}  // namespace gpuimg
