// The remap skeleton: every op of Kind::remap (crop, flips, quarter turns,
// transpose) is one AxisMap (remap.hpp), run by kernels that name no op.
//
// Where the map keeps the axes (crop, flip, flop, rotate 180), each segment
// of an output row is one run of an input row, forwards or backwards: a
// warp loads the run into shared memory in 16-byte vectors, reverses its
// pixels there where the map does, and writes the segment out in 16-byte
// vectors (row_io.cuh), whatever either row's alignment. Moving pixels one
// by one (3 bytes a thread at RGB) took 1.55 times a copy at 7680x4320.
//
// Where it swaps them, a block writes a 32x32 tile of the output: the warp
// reads along input rows into a shared-memory tile and writes the output
// rows from its columns, so both sides of the transpose coalesce.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"
#include "row_io.cuh"

namespace gpuimg {
namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // warps a block

template <int Bytes> struct Pixel {
  unsigned char b[Bytes];
};

// ---- maps that keep the axes ----------------------------------------------

constexpr int kRowWarps = 8;
constexpr int kPerLane = 4;                                  // vectors a lane carries
constexpr int kSegmentRoom = 32 * kPerLane * 16 - 15;        // the most bytes row_io moves at once
constexpr int kStageBytes = (32 * kPerLane * 16 + 32 + 15) / 16 * 16;

template <int PB>
__global__ void __launch_bounds__(32 * kRowWarps)
    row_remap_kernel(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst, int in_w, int in_h,
                     int out_w, int out_h, AxisMap m, int segment_px, long long segments) {
  __shared__ __align__(16) unsigned char stage[kRowWarps][2][kStageBytes];
  unsigned char* loaded = stage[threadIdx.y][0];
  unsigned char* turned = stage[threadIdx.y][1];
  const int lane = threadIdx.x;
  const int per_row = (out_w + segment_px - 1) / segment_px;
  const unsigned char* in_end = src + static_cast<std::size_t>(in_w) * in_h * PB;
  const long long warps = static_cast<long long>(gridDim.x) * kRowWarps;
  for (long long seg = blockIdx.x * 1LL * kRowWarps + threadIdx.y; seg < segments; seg += warps) {
    const int y = static_cast<int>(seg / per_row);
    const int x0 = static_cast<int>(seg - 1LL * y * per_row) * segment_px;
    const int n_px = min(segment_px, out_w - x0);
    const int n = n_px * PB;
    // The input run, lowest pixel first: forwards from (x0, y)'s source, or
    // backwards to it.
    const int first = m.xx > 0 ? m.source_x(x0, y) : m.source_x(x0 + n_px - 1, y);
    const unsigned char* run = src + (static_cast<std::size_t>(m.source_y(x0, y)) * in_w + first) * PB;
    const int shift = copy_row_in<kPerLane>(run, n, src, in_end, loaded);
    __syncwarp();
    const unsigned char* out = loaded + shift;
    if (m.xx < 0) {
      for (int b = lane; b < n; b += 32) {
        const int p = b / PB;
        turned[b] = loaded[shift + (n_px - 1 - p) * PB + (b - p * PB)];
      }
      __syncwarp();
      out = turned;
    }
    copy_row_out(out, dst + (static_cast<std::size_t>(y) * out_w + x0) * PB, n);
    __syncwarp();  // the buffers are refilled for the next segment
  }
}

template <int PB> cudaError_t launch_rows(const CudaStage& s, const AxisMap& m) {
  const int segment_px = kSegmentRoom / PB;
  const long long segments = 1LL * s.out.height * ((s.out.width + segment_px - 1) / segment_px);
  int slots = 0;
  if (cudaError_t e = resident_blocks(row_remap_kernel<PB>, 32 * kRowWarps, 0, slots); e != cudaSuccess) return e;
  const int blocks = static_cast<int>(std::clamp<long long>((segments + kRowWarps - 1) / kRowWarps, 1, 2LL * slots));
  row_remap_kernel<PB><<<blocks, dim3(32, kRowWarps), 0, s.stream>>>(
      static_cast<const unsigned char*>(s.src), static_cast<unsigned char*>(s.dst), s.in.width, s.in.height,
      s.out.width, s.out.height, m, segment_px, segments);
  return cudaGetLastError();
}

// ---- maps that swap them ----------------------------------------------------

template <class P>
__global__ void __launch_bounds__(kTile * kRowsPerPass)
    transpose_kernel(const P* __restrict__ src, P* __restrict__ dst, int in_w, int out_w, int out_h, AxisMap m,
                 int tiles_y) {
  __shared__ P tile[kTile][kTile + 1];  // +1: a column's pixels fall in different banks
  const int lane = threadIdx.x;
  const int x_base = blockIdx.x * kTile;
  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int y_base = ty * kTile;
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
  if (!m.swaps_axes()) return launch_rows<Bytes>(s, m);
  using P = Pixel<Bytes>;
  const int tiles_x = (s.out.width + kTile - 1) / kTile;
  const int tiles_y = (s.out.height + kTile - 1) / kTile;
  const dim3 grid(tiles_x, std::min(tiles_y, kMaxGridY));
  transpose_kernel<P><<<grid, dim3(kTile, kRowsPerPass), 0, s.stream>>>(
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
