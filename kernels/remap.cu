// The remap skeleton: every op of Kind::remap (crop, flips, quarter turns,
// transpose) is one AxisMap (remap.hpp), run by one kernel that names no op.
// A block writes a 32x32 tile of the output. Where the map keeps the axes,
// each output row is a run of one input row, read and written by the warp
// in order (or in reverse, which coalesces as well). Where it swaps them,
// the warp reads along input rows into a shared-memory tile and writes the
// output rows from its columns, so both sides of the transpose coalesce.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"

namespace gpuimg {
namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // warps a block

template <int Bytes> struct Pixel {
  unsigned char b[Bytes];
};

template <class P>
__global__ void __launch_bounds__(kTile * kRowsPerPass)
    remap_kernel(const P* __restrict__ src, P* __restrict__ dst, int in_w, int out_w, int out_h, AxisMap m,
                 int tiles_y) {
  __shared__ P tile[kTile][kTile + 1];  // +1: a column's pixels fall in different banks
  const int lane = threadIdx.x;
  const int x_base = blockIdx.x * kTile;
  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int y_base = ty * kTile;
    if (!m.swaps_axes()) {
      const int x = x_base + lane;
      for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
        const int y = y_base + r;
        if (x < out_w && y < out_h)
          dst[static_cast<std::size_t>(y) * out_w + x] =
              src[static_cast<std::size_t>(m.source_y(x, y)) * in_w + m.source_x(x, y)];
      }
      continue;
    }
    // Row r of the tile holds output column x_base + r; lane l output row
    // y_base + l, whose sources lie side by side in one input row.
    for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
      const int x = x_base + r, y = y_base + lane;
      if (x < out_w && y < out_h)
        tile[r][lane] = src[static_cast<std::size_t>(m.source_y(x, y)) * in_w + m.source_x(x, y)];
    }
    __syncthreads();
    for (int r = threadIdx.y; r < kTile; r += kRowsPerPass) {
      const int x = x_base + lane, y = y_base + r;
      if (x < out_w && y < out_h) dst[static_cast<std::size_t>(y) * out_w + x] = tile[lane][r];
    }
    __syncthreads();  // the tile is refilled for the next tile row
  }
}

template <int Bytes> cudaError_t launch(const CudaStage& s, const AxisMap& m) {
  using P = Pixel<Bytes>;
  const int tiles_x = (s.out.width + kTile - 1) / kTile;
  const int tiles_y = (s.out.height + kTile - 1) / kTile;
  const dim3 grid(tiles_x, std::min(tiles_y, kMaxGridY));
  remap_kernel<P><<<grid, dim3(kTile, kRowsPerPass), 0, s.stream>>>(
      static_cast<const P*>(s.src), static_cast<P*>(s.dst), s.in.width, s.out.width, s.out.height, m, tiles_y);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_remap(const CudaStage& s, const AxisMap& map) {
  if (s.in.channels != s.out.channels || s.in.bytes != s.out.bytes) return cudaErrorInvalidValue;
  switch (s.in.channels * s.in.bytes) {
    case 1: return launch<1>(s, map);
    case 2: return launch<2>(s, map);
    case 3: return launch<3>(s, map);
    case 4: return launch<4>(s, map);
    case 6: return launch<6>(s, map);
    case 8: return launch<8>(s, map);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace gpuimg
