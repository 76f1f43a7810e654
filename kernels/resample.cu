// The resample skeleton: every op of Kind::resample, through the tables in
// its stage data (resample.hpp), by the same per-pixel code as the CPU
// (resample_pixel): one thread an output pixel, a pass along x into the
// stage's scratch and one along y out of it, each only where its axis
// changes size. Neighbouring threads read overlapping runs of one row, or
// the same rows of neighbouring columns, so both passes read coalesced.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;

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

template <class T, int C>
cudaError_t pass(const CudaStage& s, const void* src, void* dst, int width, int height, bool along_x,
                 const ResampleTable& t, int out_len, bool pre, bool unpre) {
  const long long pixels = 1LL * (along_x ? out_len : width) * (along_x ? height : out_len);
  pass_kernel<T, C><<<blocks_for(pixels), kThreads, 0, s.stream>>>(static_cast<const T*>(src), static_cast<T*>(dst),
                                                                    width, height, along_x, t, out_len, pre, unpre);
  return cudaGetLastError();
}

template <class T, int C> cudaError_t resample(const CudaStage& s, const ResampleTables& t) {
  if (t.x_kept && t.y_kept)
    return cudaMemcpyAsync(s.dst, s.src, s.in.byte_size(), cudaMemcpyDeviceToDevice, s.stream);
  if (t.filter == ResizeFilter::nearest) {
    nearest_kernel<T, C><<<blocks_for(1LL * s.out.width * s.out.height), kThreads, 0, s.stream>>>(
        static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.out.width, s.out.height, t.x, t.y);
    return cudaGetLastError();
  }
  const bool alpha = resize_premultiplies(t.filter, C);
  if (t.y_kept) return pass<T, C>(s, s.src, s.dst, s.in.width, s.in.height, true, t.x, s.out.width, alpha, alpha);
  if (t.x_kept) return pass<T, C>(s, s.src, s.dst, s.in.width, s.in.height, false, t.y, s.out.height, alpha, alpha);
  if (cudaError_t e = pass<T, C>(s, s.src, s.scratch, s.in.width, s.in.height, true, t.x, s.out.width, alpha, false);
      e != cudaSuccess)
    return e;
  return pass<T, C>(s, s.scratch, s.dst, s.out.width, s.in.height, false, t.y, s.out.height, false, alpha);
}

template <class T> cudaError_t resample(const CudaStage& s, const ResampleTables& t) {
  return with_channels(s, [&](auto c) { return resample<T, decltype(c)::value>(s, t); });
}

}  // namespace

cudaError_t launch_resample(const CudaStage& s) {
  if (!s.data || !s.host_data || s.in.channels != s.out.channels || s.in.bytes != s.out.bytes)
    return cudaErrorInvalidValue;
  const ResampleTables t = unpack_resample(s.host_data, s.data);
  return s.in.bytes == 1 ? resample<std::uint8_t>(s, t) : resample<std::uint16_t>(s, t);
}

}  // namespace gpuimg
