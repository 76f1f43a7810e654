#pragma once
// Moving one image row segment between global memory and a warp's staging
// buffer in shared memory, in 16-byte vectors whatever the row's alignment
// (an image row starts wherever width * pixel bytes puts it).
#include <cstddef>
#include <cstdint>

namespace gpuimg {

// Copies `n` bytes from global `src` into shared `dst` + (src % 16), whole
// 16-byte vectors where they lie inside [begin, end) of the buffer; returns
// src % 16, where the copy starts in `dst`. `dst` must hold n + 30 bytes.
// Called by all 32 lanes of a warp.
__device__ __forceinline__ int copy_row_in(const unsigned char* src, std::size_t n, const unsigned char* begin,
                                           const unsigned char* end, unsigned char* dst) {
  const int shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(src) & 15);
  const unsigned char* a = src - shift;
  const int vectors = static_cast<int>((shift + n + 15) / 16);
  for (int k = threadIdx.x % 32; k < vectors; k += 32) {
    const unsigned char* v = a + 16 * k;
    if (v >= begin && v + 16 <= end) {
      *reinterpret_cast<uint4*>(dst + 16 * k) = *reinterpret_cast<const uint4*>(v);
    } else {
      for (int b = 0; b < 16; ++b)
        if (v + b >= begin && v + b < end) dst[16 * k + b] = v[b];
    }
  }
  return shift;
}

// Writes `n` staged bytes to global `dst`: 16-byte vectors where `dst` is
// aligned, single bytes at both ends. `staged` may sit at any byte of shared
// memory; up to 4 bytes past staged + n are read. Called by all 32 lanes.
__device__ __forceinline__ void copy_row_out(const unsigned char* staged, unsigned char* dst, int n) {
  const int lane = threadIdx.x % 32;
  const int head = static_cast<int>((16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15);
  const int lead = min(head, n);
  if (lane < lead) dst[lane] = staged[lane];
  const int vectors = (n - lead) / 16;
  const int tail = lead + 16 * vectors;
  if (lane < n - tail) dst[tail + lane] = staged[tail + lane];
  // Each vector is assembled from five aligned words of the staging buffer.
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(staged + lead);
  const int shift = static_cast<int>(first & 3);
  const std::uint32_t* w = reinterpret_cast<const std::uint32_t*>(first - shift);
  for (int k = lane; k < vectors; k += 32) {
    std::uint32_t r[5];
#pragma unroll
    for (int j = 0; j < 5; ++j) r[j] = w[4 * k + j];
    uint4 v;
    v.x = __funnelshift_r(r[0], r[1], 8 * shift);
    v.y = __funnelshift_r(r[1], r[2], 8 * shift);
    v.z = __funnelshift_r(r[2], r[3], 8 * shift);
    v.w = __funnelshift_r(r[3], r[4], 8 * shift);
    *reinterpret_cast<uint4*>(dst + lead + 16 * k) = v;
  }
}

}  // namespace gpuimg
