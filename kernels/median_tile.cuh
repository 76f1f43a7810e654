#pragma once
// The shared-memory tile the median's networks and radix select read: rows
// of the input with a halo of R pixels and R rows, staged in 16-byte
// vectors, the border replicated.
#include <cstddef>
#include <cstdint>

#include "pixel.hpp"
#include "row_io.cuh"

namespace gpuimg {

__host__ __device__ constexpr int round_up(int v, int m) { return (v + m - 1) / m * m; }

// A staged row of a tile whose halo reaches `reach` pixels left of it lands
// tile_left_room bytes in, with room before it for the replicated pixels
// left of the image; tile_stride leaves room after it for the vectors'
// slack.
__host__ __device__ constexpr int tile_left_room(int reach, int pixel_bytes) {
  return round_up(reach * pixel_bytes, 16);
}
__host__ __device__ constexpr int tile_stride(int pixels, int reach, int pixel_bytes) {
  return round_up(tile_left_room(reach, pixel_bytes) + pixels * pixel_bytes + 34, 16);
}

// Stages image rows oy .. oy + rows - 1 (clamped into the image), pixels
// ox .. ox + pixels - 1 of each, into `tile`, rows tile_stride() bytes
// apart, and sets first[r] to the byte where row r's pixel ox sits. Pixels
// outside the image up to `reach` past its edges replicate the edge pixel;
// outputs inside the image read no further. Called by every thread of the
// block, warps taking rows in turn; the caller synchronises the block
// before reading.
template <int PixelBytes, int PerLane>
__device__ __forceinline__ void stage_tile(const unsigned char* in, int width, int height, int ox, int oy,
                                           int pixels, int rows, int reach, unsigned char* tile, int* first) {
  const unsigned char* in_end = in + static_cast<std::size_t>(width) * height * PixelBytes;
  const int warps = blockDim.x * blockDim.y / 32, warp = (threadIdx.y * blockDim.x + threadIdx.x) / 32;
  const int lo_px = max(ox, 0), hi_px = min(ox + pixels, width);
  const int left = lo_px - ox, right_from = hi_px - ox;
  const int left_room = tile_left_room(reach, PixelBytes), stride = tile_stride(pixels, reach, PixelBytes);
  for (int r = warp; r < rows; r += warps) {
    const int sy = clamp_index(oy + r, height);
    unsigned char* row = tile + r * stride;
    const int at = left_room - left * PixelBytes +
                   copy_row_in<PerLane>(in + (static_cast<std::size_t>(sy) * width + lo_px) * PixelBytes,
                                        (hi_px - lo_px) * PixelBytes, in, in_end, row + left_room);
    if (left > 0 || right_from < pixels) {
      __syncwarp();
      replicate_edges<PixelBytes>(row + at, left, right_from, min(right_from + reach, pixels));
    }
    if (threadIdx.x % 32 == 0) first[r] = at;
  }
}

}  // namespace gpuimg
