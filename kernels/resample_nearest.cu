// --resize by nearest: each output pixel a copy of one input pixel, the
// tables' first (resample_nearest_index). Three paths: halving along x,
// where output x is input 2 x + 1 on every row (nearest_halving_kernel);
// rows whose outputs step over at most kNearestMaxStep inputs, through the
// row-segment skeleton (NearestRows); the rest a thread an output pixel
// (nearest_kernel).
#include <algorithm>
#include <cstdint>

#include "resample_paths.hpp"
#include "row_segments.cuh"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;

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

// Halving along x (output x is input 2 x + 1, nearest_halving_fits): a
// thread takes eight output pixels of PB bytes from the
// sixteen input pixels around them, PB 16-byte vectors in and PB 8-byte
// vectors out, picking the bytes in registers; the columns left over from
// whole groups take a thread a pixel. The row-segment skeleton, which
// stages each run in shared memory and places it a pixel a lane, halved
// 7680x4320 RGB in 0.0425 ms on the H100 (NPP 0.0396); this, 0.0372 (NPP
// 0.0406 in the same run).
constexpr int kHalvingGroup = 8;

template <int PB>
__global__ void __launch_bounds__(kThreads)
    nearest_halving_kernel(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst, int in_w,
                           int out_w, int out_h, ResampleTable ty) {
  const int groups = out_w / kHalvingGroup, per_row = groups + out_w % kHalvingGroup;
  const long long items = 1LL * per_row * out_h;
  for (long long t = blockIdx.x * 1LL * blockDim.x + threadIdx.x; t < items; t += 1LL * gridDim.x * blockDim.x) {
    const int y = static_cast<int>(t / per_row), i = static_cast<int>(t - 1LL * y * per_row);
    const unsigned char* row = src + std::size_t(resample_nearest_index(ty, y)) * in_w * PB;
    unsigned char* out = dst + std::size_t(y) * out_w * PB;
    if (i >= groups) {
      const int x = kHalvingGroup * groups + (i - groups);
#pragma unroll
      for (int b = 0; b < PB; ++b) out[std::size_t(x) * PB + b] = row[(2 * std::size_t(x) + 1) * PB + b];
      continue;
    }
    std::uint32_t in[4 * PB];
    const uint4* from = reinterpret_cast<const uint4*>(row) + PB * i;
#pragma unroll
    for (int v = 0; v < PB; ++v) {
      const uint4 q = __ldg(from + v);
      in[4 * v] = q.x, in[4 * v + 1] = q.y, in[4 * v + 2] = q.z, in[4 * v + 3] = q.w;
    }
    std::uint32_t picked[2 * PB];
#pragma unroll
    for (int w = 0; w < 2 * PB; ++w) {
      picked[w] = 0;
#pragma unroll
      for (int k = 0; k < 4; ++k) {  // output byte 4 w + k: byte b of pixel j, from input pixel 2 j + 1
        const int j = (4 * w + k) / PB, b = (4 * w + k) % PB, at = PB * (2 * j + 1) + b;
        picked[w] |= (in[at / 4] >> (8 * (at % 4)) & 0xffu) << (8 * k);
      }
    }
    uint2* to = reinterpret_cast<uint2*>(out) + PB * i;
#pragma unroll
    for (int v = 0; v < PB; ++v) to[v] = make_uint2(picked[2 * v], picked[2 * v + 1]);
  }
}

template <int PB> cudaError_t launch_halving(const CudaStage& s, const ResampleTable& ty) {
  const long long items = 1LL * (s.out.width / kHalvingGroup + s.out.width % kHalvingGroup) * s.out.height;
  nearest_halving_kernel<PB><<<grid_stride_blocks(items, kThreads), kThreads, 0, s.stream>>>(
      static_cast<const unsigned char*>(s.src), static_cast<unsigned char*>(s.dst), s.in.width, s.out.width,
      s.out.height, ty);
  return cudaGetLastError();
}

// Nearest as an op of the row-segment skeleton (row_segments.cuh): a
// segment's run is the input pixels from its first output's source to its
// last's (the indices ascend), and each output pixel is picked from the
// staged run, a pixel a lane. A thread an output pixel, reading and writing
// its samples one by one (nearest_kernel), took 0.76 ms to enlarge
// 3840x2160 RGB to 15360x8640 on the H100, NPP 0.45. Where outputs step over
// more than kNearestMaxStep input pixels, most of a run is never picked,
// and nearest_kernel takes them.
constexpr int kNearestMaxStep = 4;

template <int PB> struct NearestRows {
  ResampleTable tx, ty;
  int in_w;

  __device__ RowRun run(int y, int x0, int n_px) const {
    const int first = resample_nearest_index(tx, x0);
    return {static_cast<std::size_t>(resample_nearest_index(ty, y)) * in_w + first,
            resample_nearest_index(tx, x0 + n_px - 1) - first + 1};
  }
  __device__ const unsigned char* place(const unsigned char* loaded, int shift, int x0, int n_px,
                                        unsigned char* spare) const {
    using U = typename PixelUnit<PB>::U;
    const U* from = reinterpret_cast<const U*>(loaded + shift);
    U* to = reinterpret_cast<U*>(spare);
    const int first = resample_nearest_index(tx, x0);
    for (int p = threadIdx.x % 32; p < n_px; p += 32) to[p] = from[resample_nearest_index(tx, x0 + p) - first];
    return spare;
  }
};

// The most input pixels between neighbouring outputs of a nearest table.
int nearest_step(const ResampleTable& host, int out_len) {
  int step = 1;
  for (int i = 1; i < out_len; ++i)
    step = std::max(step, resample_nearest_index(host, i) - resample_nearest_index(host, i - 1));
  return step;
}

template <class T, int C> cudaError_t nearest(const CudaStage& s, const ResampleTables& t, const ResampleTables& h) {
  constexpr int PB = C * sizeof(T);
  if (nearest_halving_fits(h, PB, s.in.width, s.out.width) && aligned_to(s.src, 16) && aligned_to(s.dst, 8))
    return launch_halving<PB>(s, t.y);
  // Segments as long as the staging buffers hold both the outputs and the
  // run they pick from, at most (n - 1) * step + 1 pixels.
  if (const int step = nearest_step(h.x, s.out.width); step <= kNearestMaxStep) {
    constexpr int kRoomPx = kSegmentRoom / PB;
    return launch_row_segments<PB>(s, std::min(kRoomPx, (kRoomPx - 1) / step + 1), NearestRows<PB>{t.x, t.y, s.in.width});
  }
  const long long pixels = 1LL * s.out.width * s.out.height;
  nearest_kernel<T, C><<<grid_stride_blocks(pixels, kThreads), kThreads, 0, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.out.width, s.out.height, t.x, t.y);
  return cudaGetLastError();
}

template <class T> cudaError_t nearest(const CudaStage& s, const ResampleTables& t, const ResampleTables& h) {
  return with_channels(s, [&](auto c) { return nearest<T, decltype(c)::value>(s, t, h); });
}

}  // namespace

cudaError_t launch_resample_nearest(const CudaStage& s, const ResampleTables& device, const ResampleTables& host) {
  return s.in.bytes == 1 ? nearest<std::uint8_t>(s, device, host) : nearest<std::uint16_t>(s, device, host);
}

}  // namespace gpuimg
