// The resample skeleton: every op of Kind::resample, through the tables in
// its stage data (resample.hpp), by the same per-pixel code as the CPU
// (resample_pixel): a pass along x into the stage's scratch and one along y
// out of it, each only where its axis changes size.
//
// Along x, a block takes 256 neighbouring outputs of one row and first
// stages the run of the input row they read in shared memory, in 32-bit
// words: the taps are then read from there, not as single bytes from
// global memory. Along y without alpha, a thread takes a word of 4 (8-bit)
// or 2 (16-bit) samples of one output row: every sample of a row has the
// same taps and weights, so one load serves several sums. The per-pixel
// kernel stays for what these do not take (a row run past the staging
// room, rows not whole words, alpha along y).
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;
constexpr int kStageRoom = 40 * 1024;  // bytes of an input row run a block stages

int blocks_for(long long items) {
  return static_cast<int>(std::clamp<long long>((items + kThreads - 1) / kThreads, 1, 1 << 20));
}

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

// The input pixels the outputs [x0, x0 + kThreads) of a row read: from the
// nearest first tap to the furthest last one of any of them.
struct RowRun {
  int first, end;
};

template <class T, int C>
__global__ void __launch_bounds__(kThreads)
    staged_rows_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height, ResampleTable t,
                       int out_w, bool premultiply_in, bool unpremultiply_out) {
  extern __shared__ std::uint32_t staged[];
  const int blocks_x = (out_w + kThreads - 1) / kThreads;
  __shared__ RowRun run;
  for (long long b = blockIdx.x; b < 1LL * blocks_x * height; b += gridDim.x) {
    const int y = static_cast<int>(b / blocks_x), x0 = static_cast<int>(b - 1LL * y * blocks_x) * kThreads;
    const int x = x0 + threadIdx.x;
    if (threadIdx.x == 0) run = {t.bounds[2 * x0], 0};
    __syncthreads();
    if (x < out_w) {
      atomicMin(&run.first, t.bounds[2 * x]);
      atomicMax(&run.end, t.bounds[2 * x] + t.bounds[2 * x + 1]);
    }
    __syncthreads();
    // The run's bytes, from the word holding its first: whole words inside
    // the image as words, the last one's bytes one by one.
    const auto* bytes = reinterpret_cast<const unsigned char*>(src);
    const std::size_t from = (1ULL * y * width + run.first) * C * sizeof(T);
    const std::size_t to = (1ULL * y * width + run.end) * C * sizeof(T);
    const std::size_t image_end = 1ULL * width * height * C * sizeof(T);
    const std::size_t word0 = from / 4;
    const int words = static_cast<int>((to + 3) / 4 - word0);
    for (int i = threadIdx.x; i < words; i += kThreads) {
      const std::size_t at = (word0 + i) * 4;
      if (at + 4 <= image_end) {
        staged[i] = reinterpret_cast<const std::uint32_t*>(src)[word0 + i];
      } else {
        std::uint32_t w = 0;
        for (int k = 0; k < 4 && at + k < image_end; ++k) w |= std::uint32_t(bytes[at + k]) << (8 * k);
        staged[i] = w;
      }
    }
    __syncthreads();
    if (x < out_w) {
      const T* row = reinterpret_cast<const T*>(reinterpret_cast<const unsigned char*>(staged) + (from - word0 * 4)) -
                     std::ptrdiff_t(run.first) * C;
      resample_pixel<T, C>(row, C, t.bounds[2 * x], t.bounds[2 * x + 1], t.weights + std::ptrdiff_t(x) * t.taps,
                           premultiply_in, unpremultiply_out, dst + (1LL * y * out_w + x) * C);
    }
    __syncthreads();  // the staging is refilled for the next block of outputs
  }
}

// Along y without alpha: words of 4 / sizeof(T) samples, a row's `words`.
template <class T>
__global__ void __launch_bounds__(kThreads)
    word_columns_kernel(const std::uint32_t* __restrict__ src, std::uint32_t* __restrict__ dst, int words,
                        ResampleTable t, int out_h) {
  constexpr int S = 4 / sizeof(T);
  using Acc = typename ResampleAccumulator<T>::type;
  const int w = blockIdx.x * kThreads + threadIdx.x;
  if (w >= words) return;
  for (int y = blockIdx.y; y < out_h; y += gridDim.y) {
    const int first = t.bounds[2 * y], count = t.bounds[2 * y + 1];
    const std::int32_t* weight = t.weights + std::ptrdiff_t(y) * t.taps;
    Acc sum[S];
#pragma unroll
    for (int s = 0; s < S; ++s) sum[s] = Acc(1) << (kResampleBits - 1);
    const std::uint32_t* column = src + std::ptrdiff_t(first) * words + w;
    for (int k = 0; k < count; ++k) {
      const std::uint32_t v = column[std::ptrdiff_t(k) * words];
      const Acc wk = weight[k];
#pragma unroll
      for (int s = 0; s < S; ++s) sum[s] += Acc((v >> (8 * sizeof(T) * s)) & ((1u << (8 * sizeof(T))) - 1)) * wk;
    }
    std::uint32_t out = 0;
#pragma unroll
    for (int s = 0; s < S; ++s) out |= std::uint32_t(resample_round<T>(sum[s])) << (8 * sizeof(T) * s);
    dst[std::ptrdiff_t(y) * words + w] = out;
  }
}

template <class T, int C>
__global__ void __launch_bounds__(kThreads)
    nearest_kernel(const T* __restrict__ src, T* __restrict__ dst, int in_w, int out_w, int out_h, ResampleTable tx,
                   ResampleTable ty) {
  const long long pixels = 1LL * out_w * out_h;
  for (long long p = blockIdx.x * 1LL * blockDim.x + threadIdx.x; p < pixels; p += 1LL * gridDim.x * blockDim.x) {
    const int y = static_cast<int>(p / out_w), x = static_cast<int>(p - 1LL * y * out_w);
    const T* from = src + (1LL * resample_nearest_index(ty, y) * in_w + resample_nearest_index(tx, x)) * C;
#pragma unroll
    for (int c = 0; c < C; ++c) dst[p * C + c] = from[c];
  }
}

// The most bytes any block of staged_rows_kernel stages, from the host's
// copy of the table: 0 where one would pass kStageRoom.
int staging_bytes(const std::int32_t* bounds, int out_w, int pixel_bytes) {
  long long most = 0;
  for (int x0 = 0; x0 < out_w; x0 += kThreads) {
    long long first = bounds[2 * x0], end = 0;
    for (int x = x0; x < std::min(x0 + kThreads, out_w); ++x) {
      first = std::min<long long>(first, bounds[2 * x]);
      end = std::max<long long>(end, bounds[2 * x] + bounds[2 * x + 1]);
    }
    most = std::max(most, (end - first) * pixel_bytes);
  }
  const long long bytes = (most + 3) / 4 * 4 + 8;  // and the words its ends share with pixels outside
  return bytes <= kStageRoom ? static_cast<int>(bytes) : 0;
}

template <class T, int C>
cudaError_t rows(const CudaStage& s, const ResampleTables& host, const ResampleTable& t, const void* src, void* dst,
                 bool pre, bool unpre) {
  const int smem = staging_bytes(host.x.bounds, s.out.width, C * sizeof(T));
  if (smem == 0) {
    pass_kernel<T, C><<<blocks_for(1LL * s.out.width * s.in.height), kThreads, 0, s.stream>>>(
        static_cast<const T*>(src), static_cast<T*>(dst), s.in.width, s.in.height, true, t, s.out.width, pre, unpre);
    return cudaGetLastError();
  }
  const long long blocks = 1LL * ((s.out.width + kThreads - 1) / kThreads) * s.in.height;
  staged_rows_kernel<T, C><<<static_cast<int>(std::min<long long>(blocks, 1 << 20)), kThreads, smem, s.stream>>>(
      static_cast<const T*>(src), static_cast<T*>(dst), s.in.width, s.in.height, t, s.out.width, pre, unpre);
  return cudaGetLastError();
}

// src is s.out.width x s.in.height pixels here (or the input, where x kept its size).
template <class T, int C>
cudaError_t columns(const CudaStage& s, const ResampleTable& t, const void* src, void* dst, bool pre, bool unpre) {
  const long long samples = 1LL * s.out.width * C;
  if (pre || unpre || samples * sizeof(T) % 4 != 0 || samples * sizeof(T) / 4 > (1LL << 31) - 1) {
    pass_kernel<T, C><<<blocks_for(samples / C * s.out.height), kThreads, 0, s.stream>>>(
        static_cast<const T*>(src), static_cast<T*>(dst), s.out.width, s.in.height, false, t, s.out.height, pre,
        unpre);
    return cudaGetLastError();
  }
  const int words = static_cast<int>(samples * sizeof(T) / 4);
  const dim3 grid((words + kThreads - 1) / kThreads, std::min(s.out.height, kMaxGridY));
  word_columns_kernel<T><<<grid, kThreads, 0, s.stream>>>(static_cast<const std::uint32_t*>(src),
                                                          static_cast<std::uint32_t*>(dst), words, t, s.out.height);
  return cudaGetLastError();
}

template <class T, int C> cudaError_t resample(const CudaStage& s, const ResampleTables& host, const ResampleTables& t) {
  if (t.x_kept && t.y_kept)
    return cudaMemcpyAsync(s.dst, s.src, s.in.byte_size(), cudaMemcpyDeviceToDevice, s.stream);
  if (t.filter == ResizeFilter::nearest) {
    nearest_kernel<T, C><<<blocks_for(1LL * s.out.width * s.out.height), kThreads, 0, s.stream>>>(
        static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.out.width, s.out.height, t.x, t.y);
    return cudaGetLastError();
  }
  const bool alpha = resize_premultiplies(t.filter, C);
  if (t.y_kept) return rows<T, C>(s, host, t.x, s.src, s.dst, alpha, alpha);
  if (t.x_kept) return columns<T, C>(s, t.y, s.src, s.dst, alpha, alpha);
  if (cudaError_t e = rows<T, C>(s, host, t.x, s.src, s.scratch, alpha, false); e != cudaSuccess) return e;
  return columns<T, C>(s, t.y, s.scratch, s.dst, false, alpha);
}

template <class T> cudaError_t resample(const CudaStage& s, const ResampleTables& host, const ResampleTables& t) {
  return with_channels(s, [&](auto c) { return resample<T, decltype(c)::value>(s, host, t); });
}

}  // namespace

cudaError_t launch_resample(const CudaStage& s) {
  if (!s.data || !s.host_data || s.in.channels != s.out.channels || s.in.bytes != s.out.bytes)
    return cudaErrorInvalidValue;
  const ResampleTables host = unpack_resample(s.host_data, s.host_data);
  const ResampleTables t = unpack_resample(s.host_data, s.data);
  return s.in.bytes == 1 ? resample<std::uint8_t>(s, host, t) : resample<std::uint16_t>(s, host, t);
}

}  // namespace gpuimg
