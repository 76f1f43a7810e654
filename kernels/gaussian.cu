// --gaussian and --unsharp on the GPU, for radii past gaussian_fused.cu's
// one pass (r past 12, S above 4): the horizontal pass writes each
// sample's exact one-axis sum (gaussian_weights.hpp) to the stage's
// scratch, the vertical pass sums those down the columns and rounds once.
// Both stage their input in shared memory: a block of the horizontal pass a
// span of a row with r pixels either side, a block of the vertical pass 32
// sample columns, kChunkRows rows at a time. The last step is the op's:
// the blur itself, or unsharp's v + A(v - g).
#include <algorithm>
#include <cstdint>

#include "gaussian_paths.hpp"
#include "gaussian_store.cuh"

namespace gpuimg {
namespace {

constexpr long long kMaxBlocks = 1 << 20;

constexpr int kRowThreads = 256;
constexpr int kSpanPixels = 256;  // a row's pixels per block item

// One warp across 32 consecutive samples (128 coalesced bytes of 32-bit
// sums), kColumnWarps warps down; each thread sums kRowsPerThread
// consecutive output rows of its column, so that every row it reads from
// shared memory feeds all of them (register blocking): a group of 8 rows
// read is 64 multiply-adds, through 15 weights held in registers, where
// one output at a time costs a weight and a sum read for each.
constexpr int kColumns = 32;
constexpr int kColumnWarps = 8;
constexpr int kRowsPerThread = 8;
constexpr int kBandRows = kColumnWarps * kRowsPerThread;
constexpr int kChunkRows = 64;  // a multiple of kRowsPerThread

// The groups of kRowsPerThread rows a thread reads: its outputs' windows,
// 2r + kRowsPerThread rows.
GPUIMG_HD int column_groups(int r) { return (2 * r + 2 * kRowsPerThread - 1) / kRowsPerThread; }

int blocks_for(long long items) { return static_cast<int>(std::min(items, kMaxBlocks)); }

// Each sample of a span: w_0 v + sum of w_k (v[-k] + v[+k]), k = 1..r,
// pixels clamped to the row. The weights and the staged span are 32-bit
// words: no bank conflicts, whatever the depth.
template <class T, int C>
__global__ void __launch_bounds__(kRowThreads)
    row_sums_kernel(const T* __restrict__ src, typename GaussianSums<T>::Line* __restrict__ lines, int width,
                    int height, const std::int32_t* __restrict__ data, int spans_per_row) {
  using Line = typename GaussianSums<T>::Line;
  extern __shared__ std::uint32_t row_shared[];
  const int r = data[0];
  std::uint32_t* w = row_shared;
  std::uint32_t* staged = row_shared + r + 1;
  for (int i = threadIdx.x; i <= r; i += kRowThreads) w[i] = data[kGaussianWeightsAt + i];
  const long long items = static_cast<long long>(spans_per_row) * height;
  for (long long item = blockIdx.x; item < items; item += gridDim.x) {
    const int y = static_cast<int>(item / spans_per_row);
    const int x0 = static_cast<int>(item % spans_per_row) * kSpanPixels;
    const int pixels = min(kSpanPixels, width - x0);
    const T* row = src + static_cast<size_t>(y) * width * C;
    __syncthreads();  // the previous item's readers are done
    for (int i = threadIdx.x; i < (pixels + 2 * r) * C; i += kRowThreads) {
      const int px = i / C;
      staged[i] = row[clamp_index(x0 - r + px, width) * C + (i - px * C)];
    }
    __syncthreads();
    Line* out = lines + (static_cast<size_t>(y) * width + x0) * C;
    for (int s = threadIdx.x; s < pixels * C; s += kRowThreads) {
      const std::uint32_t* centre = staged + s + r * C;
      Line sum = Line(w[0]) * centre[0];
#pragma unroll 4
      for (int k = 1; k <= r; ++k) sum += Line(w[k]) * (centre[-k * C] + centre[k * C]);
      out[s] = sum;
    }
  }
}

// Each output sample of a band of kBandRows rows: the sum of w_|k - y|
// times the one-axis sums of rows k = y - r..y + r, clamped, through
// shared memory kChunkRows rows at a time; then store(y, j, rounded).
// Thread ty's outputs are rows y0 + 8 ty + m, m < 8, and it reads rows
// y0 - r + 8 ty + 8 g + u, u < 8, for groups g: row u of group g meets
// output m at offset d = 8 g + u - m into the window (k - y + r), whose
// weight is w_|d - r| for 0 <= d <= 2r, else 0. `padded` holds those
// weights from d = -8 on, zeros around them, so that no sum checks bounds.
template <class T, class Store>
__global__ void __launch_bounds__(kColumns * kColumnWarps)
    column_sums_kernel(const typename GaussianSums<T>::Line* __restrict__ lines, long long row_len, int height,
                       const std::int32_t* __restrict__ data, Store store, long long column_blocks, int bands) {
  using Line = typename GaussianSums<T>::Line;
  extern __shared__ std::uint64_t column_shared[];  // 8-byte aligned for 16-bit images' sums
  Line* tile = reinterpret_cast<Line*>(column_shared);
  std::uint32_t* padded = reinterpret_cast<std::uint32_t*>(tile + kChunkRows * kColumns);
  const int r = data[0], groups = column_groups(r);
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = ty * kColumns + tx; i < kRowsPerThread * (groups + 2); i += kColumns * kColumnWarps) {
    const int d = i - kRowsPerThread;
    padded[i] = d >= 0 && d <= 2 * r ? data[kGaussianWeightsAt + abs(d - r)] : 0;
  }
  const int first = kRowsPerThread * ty;  // the thread's first row, from the band's first window row
  for (long long item = blockIdx.x; item < column_blocks * bands; item += gridDim.x) {
    const long long j = (item % column_blocks) * kColumns + tx;
    const int y0 = static_cast<int>(item / column_blocks) * kBandRows;
    GaussianSums<T> acc[kRowsPerThread];
    for (int c0 = 0; c0 < kRowsPerThread * (kColumnWarps - 1 + groups); c0 += kChunkRows) {
      __syncthreads();  // the previous chunk's readers are done
      for (int q = ty; q < kChunkRows; q += kColumnWarps)
        tile[q * kColumns + tx] = j < row_len ? lines[clamp_index(y0 - r + c0 + q, height) * row_len + j] : 0;
      __syncthreads();
      const int g0 = max(0, (c0 - first) / kRowsPerThread);
      const int g1 = min(groups, (c0 + kChunkRows - first) / kRowsPerThread);
      for (int g = g0; g < g1; ++g) {
        std::uint32_t w[2 * kRowsPerThread - 1];  // w[t]: offset d = 8 g - 7 + t
#pragma unroll
        for (int t = 0; t < 2 * kRowsPerThread - 1; ++t) w[t] = padded[kRowsPerThread * g + 1 + t];
        const Line* rows = tile + (first + kRowsPerThread * g - c0) * kColumns + tx;
#pragma unroll
        for (int u = 0; u < kRowsPerThread; ++u) {
          const Line v = rows[u * kColumns];
#pragma unroll
          for (int m = 0; m < kRowsPerThread; ++m) acc[m].add(w[u - m + kRowsPerThread - 1], v);
        }
      }
    }
#pragma unroll
    for (int m = 0; m < kRowsPerThread; ++m) {
      const int y = y0 + first + m;
      if (y < height && j < row_len) store(y, j, acc[m].rounded());
    }
  }
}

template <class T, int C> cudaError_t launch_rows(const CudaStage& s, int r) {
  const int spans = (s.in.width + kSpanPixels - 1) / kSpanPixels;
  const std::size_t smem = sizeof(std::uint32_t) * (r + 1 + (std::min(kSpanPixels, s.in.width) + 2 * r) * C);
  row_sums_kernel<T, C><<<blocks_for(1LL * spans * s.in.height), kRowThreads, smem, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<typename GaussianSums<T>::Line*>(s.scratch), s.in.width,
      s.in.height, s.data, spans);
  return cudaGetLastError();
}

template <class T, class Store> cudaError_t launch_passes(const CudaStage& s, const Store& store) {
  using Line = typename GaussianSums<T>::Line;
  const int r = s.host_data[0];
  if (gaussian_one_pass(r)) return launch_fused_gaussian<T>(s, r, store);
  if (cudaError_t e = with_channels(s, [&](auto c) { return launch_rows<T, decltype(c)::value>(s, r); });
      e != cudaSuccess)
    return e;
  const long long row_len = 1LL * s.in.width * s.in.channels;
  const long long column_blocks = (row_len + kColumns - 1) / kColumns;
  const int bands = (s.in.height + kBandRows - 1) / kBandRows;
  const std::size_t smem = sizeof(Line) * kChunkRows * kColumns + sizeof(std::uint32_t) * kRowsPerThread *
                                                                        (column_groups(r) + 2);
  column_sums_kernel<T, Store><<<blocks_for(column_blocks * bands), dim3(kColumns, kColumnWarps), smem, s.stream>>>(
      static_cast<const Line*>(s.scratch), row_len, s.in.height, s.data, store, column_blocks, bands);
  return cudaGetLastError();
}

template <class T> cudaError_t launch_blur(const CudaStage& s) {
  return launch_passes<T>(s, StoreBlur<T>{static_cast<T*>(s.dst), 1LL * s.in.width * s.in.channels,
                                          s.tables.store ? s.tables.store + 1 : nullptr, s.in.channels});
}

template <class T> cudaError_t launch_unsharp(const CudaStage& s, const Unsharp::Params& p) {
  return launch_passes<T>(s, StoreUnsharp<T>{static_cast<const T*>(s.src), static_cast<T*>(s.dst),
                                             1LL * s.in.width * s.in.channels, s.in.channels, p});
}

}  // namespace

int Gaussian::launch(const CudaStage& s, const Params&) {
  if (const int r = s.host_data[0]; fits_gaussian_words(s, r)) return launch_gaussian_words(s, r);
  return s.in.bytes == 1 ? launch_blur<std::uint8_t>(s) : launch_blur<std::uint16_t>(s);
}

int Unsharp::launch(const CudaStage& s, const Params& p) {
  if (const int r = s.host_data[0]; fits_gaussian_words(s, r)) return launch_unsharp_words(s, r, p);
  return s.in.bytes == 1 ? launch_unsharp<std::uint8_t>(s, p) : launch_unsharp<std::uint16_t>(s, p);
}

}  // namespace gpuimg
