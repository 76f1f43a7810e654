// The resample skeleton: every op of Kind::resample, through the tables in
// its stage data (resample.hpp): one kernel of tiles where both axes change
// size and resample_tiles.cu takes the image; else a pass along x into the
// stage's scratch and one along y out of it, each only where its axis
// changes size. Every path sums the same integer products as the CPU's
// resample_pixel, exactly, so the order of the sums makes no difference to
// the bytes. Along x, runs
// longer than kMinStripTaps go through shared memory a strip of outputs at
// a time (strip_kernel); along y, rows of whole words go a word of samples
// a thread (column_words_kernel); the rest take one thread an output pixel
// (pass_kernel), reading overlapping runs of one row, or the same rows of
// neighbouring columns, coalesced.
#include <algorithm>
#include <cstdint>

#include "byte_lanes.hpp"
#include "cuda_launch.hpp"
#include "resample_paths.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;

// src is width x height pixels; the pass writes its side along the axis as
// out_len.
template <class T, int C>
__global__ void __launch_bounds__(kThreads)
    pass_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height, bool along_x,
                ResampleTable t, int out_len, bool premultiply_in, bool unpremultiply_out) {
  const int out_w = along_x ? out_len : width, out_h = along_x ? height : out_len;
  const long long pixels = 1LL * out_w * out_h;
  for (long long p = blockIdx.x * 1LL * blockDim.x + threadIdx.x; p < pixels; p += 1LL * gridDim.x * blockDim.x) {
    const int y = static_cast<int>(p / out_w), x = static_cast<int>(p - 1LL * y * out_w);
    const int i = along_x ? x : y;
    const T* line = along_x ? src + 1LL * y * width * C : src + 1LL * x * C;
    const std::ptrdiff_t step = along_x ? C : std::ptrdiff_t(width) * C;
    resample_pixel<T, C>(line, step, t.bounds[2 * i], t.bounds[2 * i + 1], t.weights + std::ptrdiff_t(i) * t.taps,
                         premultiply_in, unpremultiply_out, dst + p * C);
  }
}

// The pass along x, a block a strip of kStrip output pixels over
// kStripRows rows: the strip's weights, and then each row's run of input
// pixels, premultiplied where the pass does that, go to shared memory once,
// so a tap costs shared-memory reads where the per-pixel kernel above read
// global memory (ncu at 7680x4320 RGB to half size: 13 stalls on the load
// queue per instruction, 0.28 ms).
constexpr int kStrip = 128;
constexpr int kStripRows = 8;

// An output's weights in shared memory, padded with zeros to whole groups
// of four (one 16-byte read), and spaced so that the eight threads of a
// 16-byte read's phase hit different banks.
GPUIMG_HD int strip_taps(int taps) { return (taps + 3) / 4 * 4; }
GPUIMG_HD int strip_stride(int taps) { return strip_taps(taps) % 8 == 0 ? strip_taps(taps) + 4 : strip_taps(taps); }

template <class T, int C>
__global__ void __launch_bounds__(kStrip)
    strip_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height, ResampleTable t, int out_w,
                 bool premultiply_in, bool unpremultiply_out) {
  using Acc = typename ResampleAccumulator<T>::type;
  extern __shared__ __align__(16) std::int32_t shared[];
  const int x0 = blockIdx.x * kStrip, x1 = min(x0 + kStrip, out_w);
  const ResampleSpan span = resample_span(t, x0, x1);
  const int taps = strip_taps(t.taps), stride = strip_stride(t.taps);
  std::int32_t* weights = shared;                   // kStrip x stride
  std::int32_t* samples = shared + kStrip * stride;  // (span.pixels + taps) x C: a zero weight may read past the run
  for (int i = threadIdx.x; i < (x1 - x0) * stride; i += kStrip) {
    const int o = i / stride, j = i - o * stride;
    weights[i] = j < t.taps ? t.weights[(x0 + o) * t.taps + j] : 0;
  }
  for (int i = span.pixels * C + threadIdx.x; i < (span.pixels + taps) * C; i += kStrip) samples[i] = 0;
  const int x = x0 + threadIdx.x;
  const bool writes = x < x1;
  const int from = writes ? t.bounds[2 * x] - span.first : 0;
  const int y1 = min(static_cast<int>(blockIdx.y + 1) * kStripRows, height);
  for (int y = blockIdx.y * kStripRows; y < y1; ++y) {
    __syncthreads();  // the last row's samples are read; the weights are in
    const T* row = src + (1LL * y * width + span.first) * C;
    for (int p = threadIdx.x; p < span.pixels; p += kStrip) {
      T px[C];
#pragma unroll
      for (int c = 0; c < C; ++c) px[c] = row[p * C + c];
      if (premultiply_in) premultiply_pixel(px, C);
#pragma unroll
      for (int c = 0; c < C; ++c) samples[p * C + c] = px[c];
    }
    __syncthreads();
    if (!writes) continue;
    Acc sum[C];
#pragma unroll
    for (int c = 0; c < C; ++c) sum[c] = Acc(1) << (kResampleBits - 1);
    const std::int32_t* w = weights + threadIdx.x * stride;
    const std::int32_t* in = samples + from * C;
    for (int i = 0; i < taps; i += 4) {
      const int4 w4 = *reinterpret_cast<const int4*>(w + i);
      const std::int32_t wk[4] = {w4.x, w4.y, w4.z, w4.w};
#pragma unroll
      for (int k = 0; k < 4; ++k)
#pragma unroll
        for (int c = 0; c < C; ++c) sum[c] += Acc(in[(i + k) * C + c]) * Acc(wk[k]);
    }
    T out[C];
#pragma unroll
    for (int c = 0; c < C; ++c) out[c] = resample_round<T>(sum[c]);
    if (unpremultiply_out) unpremultiply_pixel(out, C);
#pragma unroll
    for (int c = 0; c < C; ++c) dst[(1LL * y * out_w + x) * C + c] = out[c];
  }
}

// The pass along y for rows of whole 32-bit words with nothing to divide
// out after: channels play no part along y, so a thread takes a word of
// samples (four 8-bit, two 16-bit) down its column, a block one output
// row, whose taps are the same for every thread.
template <class T>
__global__ void __launch_bounds__(256)
    column_words_kernel(const std::uint32_t* __restrict__ src, std::uint32_t* __restrict__ dst, int words,
                        ResampleTable t, int out_h) {
  using Acc = typename ResampleAccumulator<T>::type;
  constexpr int N = kWordSamples<T>;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= words) return;
  for (int y = blockIdx.y; y < out_h; y += gridDim.y) {
    const int first = t.bounds[2 * y], count = t.bounds[2 * y + 1];
    const std::int32_t* w = t.weights + std::ptrdiff_t(y) * t.taps;
    Acc sum[N];
#pragma unroll
    for (int j = 0; j < N; ++j) sum[j] = Acc(1) << (kResampleBits - 1);
    const std::uint32_t* in = src + std::ptrdiff_t(first) * words + k;
    for (int i = 0; i < count; ++i, in += words) {
      const std::uint32_t word = *in;
      const Acc wi = __ldg(w + i);
#pragma unroll
      for (int j = 0; j < N; ++j) sum[j] += Acc(word_sample<T>(word, j)) * wi;
    }
    int out[N];
#pragma unroll
    for (int j = 0; j < N; ++j) out[j] = resample_round<T>(sum[j]);
    dst[std::ptrdiff_t(y) * words + k] = word_of<T>(out);
  }
}

// The strip kernel's shared memory: the strip's weights, and the longest
// run of input pixels any strip reads (from the host's copy of the table).
template <int C> std::size_t strip_bytes(const ResampleTable& host, int out_len) {
  int longest = 0;
  for (int x0 = 0; x0 < out_len; x0 += kStrip)
    longest = std::max(longest, resample_span(host, x0, std::min(x0 + kStrip, out_len)).pixels);
  return sizeof(std::int32_t) *
         (std::size_t(kStrip) * strip_stride(host.taps) + std::size_t(longest + strip_taps(host.taps)) * C);
}
constexpr std::size_t kMaxStripBytes = 64 * 1024;
// Runs this short (box and linear enlarging, box halving) read too little
// to repay the staging: 7680x4320 RGB to half size by box took 0.186 ms
// through the strips and 0.166 without.
constexpr int kMinStripTaps = 4;

template <class T, int C>
cudaError_t pass(const CudaStage& s, const void* src, void* dst, int width, int height, bool along_x,
                 const ResampleTable& t, const ResampleTable& host, int out_len, bool pre, bool unpre) {
  const bool strips = along_x && host.taps > kMinStripTaps && (height + kStripRows - 1) / kStripRows <= kMaxGridY;
  if (const std::size_t smem = strips ? strip_bytes<C>(host, out_len) : 0; strips && smem <= kMaxStripBytes) {
    const auto kernel = strip_kernel<T, C>;
    // The kernel's limit, the same for every launch: batch lanes launch from
    // several threads, and one's smaller limit would fail another's launch.
    if (cudaError_t e =
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kMaxStripBytes));
        e != cudaSuccess)
      return e;
    const dim3 grid((out_len + kStrip - 1) / kStrip, (height + kStripRows - 1) / kStripRows);
    kernel<<<grid, kStrip, smem, s.stream>>>(static_cast<const T*>(src), static_cast<T*>(dst), width, height, t,
                                             out_len, pre, unpre);
    return cudaGetLastError();
  }
  const long long row_bytes = 1LL * width * C * sizeof(T);
  if (!along_x && !pre && !unpre && row_bytes % 4 == 0 && row_bytes / 4 * std::max(height, out_len) < (1LL << 31)) {
    const int words = static_cast<int>(row_bytes / 4);
    const dim3 grid((words + 255) / 256, std::min(out_len, kMaxGridY));
    column_words_kernel<T><<<grid, 256, 0, s.stream>>>(static_cast<const std::uint32_t*>(src),
                                                       static_cast<std::uint32_t*>(dst), words, t, out_len);
    return cudaGetLastError();
  }
  const long long pixels = 1LL * (along_x ? out_len : width) * (along_x ? height : out_len);
  pass_kernel<T, C><<<grid_stride_blocks(pixels, kThreads), kThreads, 0, s.stream>>>(
      static_cast<const T*>(src), static_cast<T*>(dst), width, height, along_x, t, out_len, pre, unpre);
  return cudaGetLastError();
}

template <class T, int C> cudaError_t resample(const CudaStage& s, const ResampleTables& t) {
  const ResampleTables h = unpack_resample(s.host_data, s.host_data);
  if constexpr (sizeof(T) == 1) {
    bool ran = false;
    if (cudaError_t e = launch_resample_steady(s, t, h, ran); e != cudaSuccess || ran) return e;
    if (cudaError_t e = launch_resample_tiles(s, t, h, ran); e != cudaSuccess || ran) return e;
  }
  const bool alpha = resize_premultiplies(t.filter, C);
  if (t.y_kept)
    return pass<T, C>(s, s.src, s.dst, s.in.width, s.in.height, true, t.x, h.x, s.out.width, alpha, alpha);
  if (t.x_kept)
    return pass<T, C>(s, s.src, s.dst, s.in.width, s.in.height, false, t.y, h.y, s.out.height, alpha, alpha);
  if (cudaError_t e =
          pass<T, C>(s, s.src, s.scratch, s.in.width, s.in.height, true, t.x, h.x, s.out.width, alpha, false);
      e != cudaSuccess)
    return e;
  return pass<T, C>(s, s.scratch, s.dst, s.out.width, s.in.height, false, t.y, h.y, s.out.height, false, alpha);
}

template <class T> cudaError_t resample(const CudaStage& s, const ResampleTables& t) {
  return with_channels(s, [&](auto c) { return resample<T, decltype(c)::value>(s, t); });
}

}  // namespace

cudaError_t launch_resample(const CudaStage& s) {
  if (!s.data || !s.host_data || s.in.channels != s.out.channels || s.in.bytes != s.out.bytes)
    return cudaErrorInvalidValue;
  const ResampleTables t = unpack_resample(s.host_data, s.data);
  if (t.x_kept && t.y_kept)
    return cudaMemcpyAsync(s.dst, s.src, s.in.byte_size(), cudaMemcpyDeviceToDevice, s.stream);
  if (t.filter == ResizeFilter::nearest)
    return launch_resample_nearest(s, t, unpack_resample(s.host_data, s.host_data));
  return s.in.bytes == 1 ? resample<std::uint8_t>(s, t) : resample<std::uint16_t>(s, t);
}

}  // namespace gpuimg
