// The point skeleton: one launch per stage of Kind::point, dispatching on
// the record's op id over the point ops alone (dispatch_switch.cuh). The
// image is a flat run of pixel groups, each group the fewest pixels whose
// samples in and out are whole 16-byte vectors (16 or 48 bytes), loaded and
// stored by one thread: a copy moves 16 bytes per load and store, and a
// stage that touches each sample once must too, or it is bound by
// load/store instructions instead of memory. Ops that change the channel
// count (RGB to gray) read groups of one size and write another.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"
#include "dispatch_switch.cuh"
#include "register_views.hpp"

namespace gpuimg {
namespace {

template <int Bytes> struct Words16 {
  static_assert(Bytes % 16 == 0, "groups are whole 16-byte vectors");
  uint4 v[Bytes / 16];
};

// Pixels per group: the fewest whose bytes are a whole number of 16-byte vectors.
template <class T, int C> __host__ __device__ constexpr int group_pixels() {
  constexpr int b = C * static_cast<int>(sizeof(T));
  return b % 16 == 0 ? 1 : (b % 8 == 0 ? 2 : (b % 4 == 0 ? 4 : (b % 2 == 0 ? 8 : 16)));
}

// Powers of two, so the larger is a multiple of the smaller.
template <class T, int C, int Cout> __host__ __device__ constexpr int group_pixels_both() {
  return group_pixels<T, C>() > group_pixels<T, Cout>() ? group_pixels<T, C>() : group_pixels<T, Cout>();
}

template <class T, int C, int Cout>
__global__ void __launch_bounds__(256) point_kernel(const T* __restrict__ src, T* __restrict__ dst, int width,
                                                    long long pixels, const OpRecord* __restrict__ ops, int stage) {
  constexpr int G = group_pixels_both<T, C, Cout>();
  union In {
    Words16<G * C * sizeof(T)> words;
    T s[G * C];
  };
  union Out {
    Words16<G * Cout * sizeof(T)> words;
    T s[G * Cout];
  };
  const OpRecord rec = ops[stage];  // a copy in registers, read once
  const long long groups = pixels / G;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; g < groups; g += stride) {
    In in;
    Out out;
    in.words = reinterpret_cast<const decltype(in.words)*>(src)[g];
#pragma unroll
    for (int p = 0; p < G; ++p) {
      const long long i = g * G + p;
      const int y = static_cast<int>(i / width);
      dispatch<Kind::point>(PixelView<T, C>{in.s + p * C}, static_cast<int>(i - 1LL * y * width), y, rec,
                            out.s + p * Cout);
    }
    reinterpret_cast<decltype(out.words)*>(dst)[g] = out.words;
  }
  // The last pixels, fewer than a group, one per thread of the first block.
  const long long i = groups * G + blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (blockIdx.x == 0 && i < pixels) {
    T px[C], o[Cout];
#pragma unroll
    for (int c = 0; c < C; ++c) px[c] = src[i * C + c];
    const int y = static_cast<int>(i / width);
    dispatch<Kind::point>(PixelView<T, C>{px}, static_cast<int>(i - 1LL * y * width), y, rec, o);
#pragma unroll
    for (int c = 0; c < Cout; ++c) dst[i * Cout + c] = o[c];
  }
}

template <class T, int C, int Cout> cudaError_t launch(const CudaStage& s, const OpRecord* ops, int stage) {
  const long long pixels = 1LL * s.in.width * s.in.height;
  const long long groups = pixels / group_pixels_both<T, C, Cout>();
  const int blocks = static_cast<int>(std::clamp<long long>((groups + 255) / 256, 1, 1 << 20));
  point_kernel<T, C, Cout><<<blocks, 256, 0, s.stream>>>(static_cast<const T*>(s.src), static_cast<T*>(s.dst),
                                                         s.in.width, pixels, ops, stage);
  return cudaGetLastError();
}

// The channel counts in and out: the same, or colour to gray.
template <class T> cudaError_t launch(const CudaStage& s, const OpRecord* ops, int stage) {
  const int in = s.in.channels, out = s.out.channels;
  if (in == out)
    return with_channels(s, [&](auto c) { return launch<T, decltype(c)::value, decltype(c)::value>(s, ops, stage); });
  if (in == 3 && out == 1) return launch<T, 3, 1>(s, ops, stage);
  if (in == 4 && out == 2) return launch<T, 4, 2>(s, ops, stage);
  return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t launch_point(const CudaStage& s, const OpRecord* device_ops, int stage) {
  const bool aligned = (reinterpret_cast<std::uintptr_t>(s.src) | reinterpret_cast<std::uintptr_t>(s.dst)) % 16 == 0;
  if (!aligned || s.in.width != s.out.width || s.in.height != s.out.height || s.in.bytes != s.out.bytes)
    return cudaErrorInvalidValue;
  return s.in.bytes == 1 ? launch<std::uint8_t>(s, device_ops, stage) : launch<std::uint16_t>(s, device_ops, stage);
}

cudaError_t check_kernel_image() {
  cudaFuncAttributes attr;
  return cudaFuncGetAttributes(&attr, point_kernel<std::uint8_t, 1, 1>);
}

}  // namespace gpuimg
