#pragma once
// Scans and sums across a warp's lanes, for the blur's horizontal prefix sums.
#include <cstdint>

namespace gpuimg {

// Replaces each of the C values with its sum over the lanes below this
// one: an exclusive scan across the warp, by shuffles.
template <int C> __device__ __forceinline__ void warp_exclusive_scan(std::uint32_t (&v)[C]) {
  const int lane = threadIdx.x % 32;
  std::uint32_t inclusive[C];
#pragma unroll
  for (int k = 0; k < C; ++k) inclusive[k] = v[k];
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1)
#pragma unroll
    for (int k = 0; k < C; ++k) {
      const std::uint32_t below = __shfl_up_sync(~0u, inclusive[k], offset);
      if (lane >= offset) inclusive[k] += below;
    }
#pragma unroll
  for (int k = 0; k < C; ++k) v[k] = inclusive[k] - v[k];
}

// The sum of v over the warp's 32 lanes, in every lane.
__device__ __forceinline__ std::uint32_t warp_sum(std::uint32_t v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync(~0u, v);
#else
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(~0u, v, offset);
  return v;
#endif
}

}  // namespace gpuimg
