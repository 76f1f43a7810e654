#pragma once
// Scans and sums across a warp's lanes, for the blur's horizontal prefix sums.
#include <cstdint>

namespace gpuimg {

// Adds v from the lane `offset` below this one, where there is one: the
// shuffle's own predicate guards the add, which saves the select that
// __shfl_up_sync's result needs.
__device__ __forceinline__ void add_from_below(std::uint32_t& v, int offset) {
  asm("{\n\t.reg .u32 below;\n\t.reg .pred valid;\n\t"
      "shfl.sync.up.b32 below|valid, %0, %1, 0, -1;\n\t"
      "@valid add.u32 %0, %0, below;\n\t}"
      : "+r"(v)
      : "r"(offset));
}

// Replaces each of the C values with its sum over the lanes below this
// one: an exclusive scan across the warp, by shuffles.
template <int C> __device__ __forceinline__ void warp_exclusive_scan(std::uint32_t (&v)[C]) {
  std::uint32_t inclusive[C];
#pragma unroll
  for (int k = 0; k < C; ++k) inclusive[k] = v[k];
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1)
#pragma unroll
    for (int k = 0; k < C; ++k) add_from_below(inclusive[k], offset);
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
