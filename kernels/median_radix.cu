// The median of 16-bit images past the networks' radii: a bitwise radix
// select per pixel over a shared-memory tile. Bit by bit from the top, each
// channel's median is the largest value whose count of window samples below
// it is at most the median's rank: 16 passes over the window, counting
// against a candidate with the next bit set. Exact for any samples, and
// O(R^2) work an output with no per-thread state but the counts.
#include <algorithm>
#include <cstdint>

#include "median_paths.hpp"
#include "median_tile.cuh"

namespace gpuimg {
namespace {

constexpr int kTileW = 32;  // pixels: a thread each
constexpr int kTileH = 16;  // rows: 8 warps of 2
constexpr int kWarps = 8;
constexpr int kMaxReach = 15;  // Median's largest radius
constexpr int kBits = 16;

template <int C> struct RadixTile {
  static constexpr int kPixelBytes = 2 * C;
  static constexpr int kVectorsPerLane = row_vectors_per_lane((kTileW + 2 * kMaxReach) * kPixelBytes);
  __host__ __device__ static int pixels(int radius) { return kTileW + 2 * radius; }
  __host__ __device__ static int rows(int radius) { return kTileH + 2 * radius; }
  __host__ __device__ static int stride(int radius) { return tile_stride(pixels(radius), radius, kPixelBytes); }
  __host__ __device__ static int shared_bytes(int radius) { return rows(radius) * stride(radius) + rows(radius) * 4; }
};

template <int C>
__global__ void __launch_bounds__(32 * kWarps)
    median_radix_kernel(const std::uint16_t* __restrict__ src, std::uint16_t* __restrict__ dst, int width,
                        int height, int radius, int tiles_y) {
  using S = RadixTile<C>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int rows = S::rows(radius), stride = S::stride(radius);
  unsigned char* tile = smem;
  int* first = reinterpret_cast<int*>(smem + rows * stride);
  const int k = 2 * radius + 1, rank = Median::median_rank(radius);
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int x = blockIdx.x * kTileW + lane;

  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    stage_tile<S::kPixelBytes, S::kVectorsPerLane>(reinterpret_cast<const unsigned char*>(src), width, height,
                                                   blockIdx.x * kTileW - radius, ty * kTileH - radius,
                                                   S::pixels(radius), rows, radius, tile, first);
    __syncthreads();
    for (int i = 0; i < 2; ++i) {
      // Output row r of the tile reads tile rows r .. r + 2R; the window of
      // this thread's pixel starts at tile pixel `lane`.
      const int r = 2 * warp + i, y = ty * kTileH + r;
      unsigned prefix[C] = {};
      for (int bit = kBits - 1; bit >= 0; --bit) {
        unsigned candidate[C];
        int under[C];
#pragma unroll
        for (int c = 0; c < C; ++c) {
          candidate[c] = prefix[c] | 1u << bit;
          under[c] = 0;
        }
        for (int dy = 0; dy < k; ++dy) {
          const auto* row = reinterpret_cast<const std::uint16_t*>(tile + (r + dy) * stride + first[r + dy]) + lane * C;
          for (int dx = 0; dx < k; ++dx)
#pragma unroll
            for (int c = 0; c < C; ++c) under[c] += row[dx * C + c] < candidate[c];
        }
#pragma unroll
        for (int c = 0; c < C; ++c)
          if (under[c] <= rank) prefix[c] = candidate[c];
      }
      if (x < width && y < height) {
        std::uint16_t* out = dst + (static_cast<std::size_t>(y) * width + x) * C;
#pragma unroll
        for (int c = 0; c < C; ++c) out[c] = static_cast<std::uint16_t>(prefix[c]);
      }
    }
    __syncthreads();  // the tile is refilled for the next tile row
  }
}

template <int C> cudaError_t launch(const CudaStage& s, int radius) {
  using S = RadixTile<C>;
  const auto kernel = median_radix_kernel<C>;
  const int smem = S::shared_bytes(radius);
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem); e != cudaSuccess)
    return e;
  const int tiles_x = (s.in.width + kTileW - 1) / kTileW;
  const int tiles_y = (s.in.height + kTileH - 1) / kTileH;
  const dim3 grid(tiles_x, std::min(tiles_y, kMaxGridY));
  kernel<<<grid, dim3(32, kWarps), smem, s.stream>>>(static_cast<const std::uint16_t*>(s.src),
                                                     static_cast<std::uint16_t*>(s.dst), s.in.width, s.in.height,
                                                     radius, tiles_y);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_median_radix(const CudaStage& s, int radius) {
  if (s.in.bytes != 2 || radius > kMaxReach) return cudaErrorInvalidValue;
  return with_channels(s, [&](auto c) { return launch<decltype(c)::value>(s, radius); });
}

}  // namespace gpuimg
