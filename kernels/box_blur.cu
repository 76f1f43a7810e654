// Box blur on the GPU for what no one-pass path takes (box_blur_paths.hpp):
// the two sliding-sum passes of ops/blur.hpp. Each thread of the horizontal
// pass owns a segment of a row, each thread of the vertical pass one sample
// column over a band of rows; a segment or band is at least as long as the
// window, so the O(window) start of each costs at most one extra read per
// output. The sums between the passes are 16-bit where they fit (8-bit
// images up to R = 128), else 32-bit.
#include <algorithm>
#include <cstdint>

#include "box_blur_paths.hpp"
#include "cuda_launch.hpp"
#include "warp_scan.cuh"

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

// The horizontal pass with the row in shared memory, for windows that fit:
// a block stages a span of kSpan samples plus the window's reach on both
// sides (border replicated), scans it into per-channel prefix sums, and
// writes each window sum as the difference of two prefixes. Loads and
// stores are coalesced, and the work per sample is O(1) at any radius.
// Sums are exact modulo 2^32, and every window sum is below 2^32.
constexpr int kSpan = 2048;
constexpr int kStagedReach = 6144;  // (2R+1) * channels samples at most
constexpr int kScanThreads = 256;
constexpr int kScanWarps = kScanThreads / 32;

template <class T, class Sum, int C>
__global__ void __launch_bounds__(kScanThreads)
    staged_row_sums_kernel(const T* __restrict__ src, Sum* __restrict__ sums, int width, int height, int radius,
                           int spans_per_row) {
  extern __shared__ std::uint32_t prefix[];
  __shared__ std::uint32_t warp_totals[kScanWarps][C];
  const int row_len = width * C;
  const int t = threadIdx.x, warp = t / 32;
  for (long long item = blockIdx.x; item < static_cast<long long>(spans_per_row) * height; item += gridDim.x) {
    const int y = static_cast<int>(item / spans_per_row);
    const int s0 = static_cast<int>(item % spans_per_row) * kSpan;
    const int s1 = min(s0 + kSpan, row_len);
    const int lo = s0 - (radius + 1) * C;  // staged sample lo + i sits at prefix[i]
    const int n = (s1 - s0) + (2 * radius + 1) * C;
    const T* row = src + static_cast<size_t>(y) * row_len;
    if (lo >= 0 && lo + n <= row_len) {  // the same for the whole block
      for (int i = t; i < n; i += kScanThreads) prefix[i] = row[lo + i];
    } else {  // a span at either end of the row: replicate the edge pixel
      for (int i = t; i < n; i += kScanThreads) {
        const int v = lo + i;
        const int x = v >= 0 ? v / C : -((-v + C - 1) / C);  // floor(v / C): C is a constant
        prefix[i] = row[clamp_index(x, width) * C + (v - x * C)];
      }
    }
    __syncthreads();

    // Each thread scans its own chunk, a whole number of pixels, so that
    // slot k of every chunk holds the same channel. The chunks' totals per
    // slot are scanned across the warp by shuffles and across the warps
    // through shared memory (one barrier, where a scan over the block's
    // threads took two a step), and added back.
    const int chunk = ((n + kScanThreads - 1) / kScanThreads + C - 1) / C * C;
    const int a = min(t * chunk, n), b = min(a + chunk, n);
    for (int i = a + C; i < b; ++i) prefix[i] += prefix[i - C];
    std::uint32_t carry[C];
#pragma unroll
    for (int k = 0; k < C; ++k) carry[k] = b - a >= C ? prefix[b - C + k] : 0;
    std::uint32_t total[C];
#pragma unroll
    for (int k = 0; k < C; ++k) total[k] = carry[k];
    warp_exclusive_scan<C>(carry);
    if (t % 32 == 31)
#pragma unroll
      for (int k = 0; k < C; ++k) warp_totals[warp][k] = carry[k] + total[k];
    __syncthreads();
    for (int w = 0; w < warp; ++w)
#pragma unroll
      for (int k = 0; k < C; ++k) carry[k] += warp_totals[w][k];
    for (int i = a; i < b; i += C)
#pragma unroll
      for (int k = 0; k < C; ++k)
        if (i + k < b) prefix[i + k] += carry[k];
    __syncthreads();

    Sum* out = sums + static_cast<size_t>(y) * row_len;
    for (int s = s0 + t; s < s1; s += kScanThreads) {
      const int i = s - lo;
      out[s] = static_cast<Sum>(prefix[i + radius * C] - prefix[i - (radius + 1) * C]);
    }
    __syncthreads();  // the next span reuses the staging buffer and the warp totals
  }
}

template <class T, class Acc, class Sum>
__global__ void column_means_kernel(const Sum* __restrict__ sums, T* __restrict__ dst, int row_len,
                                    int height, int radius, int band_len, int bands) {
  const long long total = static_cast<long long>(row_len) * bands;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int j = static_cast<int>(i % row_len);  // neighbouring threads, neighbouring columns: coalesced
    const int y0 = static_cast<int>(i / row_len) * band_len;
    Acc acc;
    box_columns<T, Acc, Sum>(sums, row_len, height, radius, j, j + 1, y0, min(y0 + band_len, height), dst, &acc);
  }
}

int blocks_for(long long work) {
  return static_cast<int>(std::min((work + kThreads - 1) / kThreads, kMaxBlocks));
}

template <class T, class Sum, int C> cudaError_t launch_staged_rows(const CudaStage& s, const Blur::Params& p) {
  const int reach = (2 * p.radius + 1) * C;
  const int spans = (s.in.width * C + kSpan - 1) / kSpan;
  const long long items = 1LL * spans * s.in.height;
  const size_t smem = sizeof(std::uint32_t) * (std::min(kSpan, s.in.width * C) + reach);
  staged_row_sums_kernel<T, Sum, C><<<static_cast<int>(std::min<long long>(items, kMaxBlocks)), kScanThreads, smem,
                                      s.stream>>>(static_cast<const T*>(s.src), static_cast<Sum*>(s.scratch), s.in.width,
                                                  s.in.height, p.radius, spans);
  return cudaGetLastError();
}

template <class T, class Sum> cudaError_t launch_staged_rows(const CudaStage& s, const Blur::Params& p) {
  return with_channels(s, [&](auto c) { return launch_staged_rows<T, Sum, decltype(c)::value>(s, p); });
}

template <class T, class Sum> cudaError_t launch_columns(const CudaStage& s, const Blur::Params& p) {
  const int row_len = s.in.width * s.in.channels;
  const int band = run_length(p.radius, s.in.height);
  const int bands = (s.in.height + band - 1) / band;
  const int blocks = blocks_for(1LL * row_len * bands);
  const auto* sums = static_cast<const Sum*>(s.scratch);
  if (Blur::needs_wide_sums(p.radius, sizeof(T) == 1 ? 255 : 65535))
    column_means_kernel<T, std::uint64_t, Sum><<<blocks, kThreads, 0, s.stream>>>(
        sums, static_cast<T*>(s.dst), row_len, s.in.height, p.radius, band, bands);
  else
    column_means_kernel<T, std::uint32_t, Sum><<<blocks, kThreads, 0, s.stream>>>(
        sums, static_cast<T*>(s.dst), row_len, s.in.height, p.radius, band, bands);
  return cudaGetLastError();
}

template <class T> cudaError_t launch_two_passes(const CudaStage& s, const Blur::Params& p) {
  const int reach = (2 * p.radius + 1) * s.in.channels;
  if (reach <= kStagedReach && Blur::row_sums_fit_16_bits(p.radius, sizeof(T) == 1 ? 255 : 65535)) {
    if (cudaError_t e = launch_staged_rows<T, std::uint16_t>(s, p); e != cudaSuccess) return e;
    return launch_columns<T, std::uint16_t>(s, p);
  }
  auto* sums = static_cast<std::uint32_t*>(s.scratch);
  if (reach <= kStagedReach) {
    if (cudaError_t e = launch_staged_rows<T, std::uint32_t>(s, p); e != cudaSuccess) return e;
  } else {
    const int seg = run_length(p.radius, s.in.width);
    const int segs = (s.in.width + seg - 1) / seg;
    row_sums_kernel<T><<<blocks_for(1LL * segs * s.in.height), kThreads, 0, s.stream>>>(
        static_cast<const T*>(s.src), sums, s.in.width, s.in.height, s.in.channels, p.radius, seg, segs);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  }
  return launch_columns<T, std::uint32_t>(s, p);
}

}  // namespace

// The cudaError_t of the path the radius and rows choose.
int Blur::launch(const CudaStage& s, const Params& p) {
  if (p.radius <= Blur::kMaxFusedRadius)
    return fits_vector_blur(s, p.radius) ? launch_vector_blur(s, p.radius) : launch_fused_blur(s, p.radius);
  if (fits_strip_blur(s, p.radius)) return launch_strip_blur(s, p.radius);
  // One pass for other 8-bit rows too, unless two passes' sums stay in L2 (see Blur::kMaxWideRadius).
  if (s.in.bytes == 1 && p.radius <= Blur::kMaxWideRadius) {
    int device = 0, l2_bytes = 0;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
    if (cudaError_t e = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device); e != cudaSuccess) return e;
    if (2LL * s.in.width * s.in.height * s.in.channels > l2_bytes) return launch_wide_blur(s, p.radius);
  }
  return s.in.bytes == 1 ? launch_two_passes<std::uint8_t>(s, p) : launch_two_passes<std::uint16_t>(s, p);
}

}  // namespace gpuimg
