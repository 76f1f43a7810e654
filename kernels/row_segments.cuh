#pragma once
// The row-segment skeleton: a warp takes a segment of an output row, loads
// the run of input pixels it comes from into shared memory in 16-byte
// vectors, lets its op place the segment's pixels from there, and writes
// the segment in 16-byte vectors (row_io.cuh), whatever either row's
// alignment. The remaps that keep the axes (remap.cu), where a row, a run
// or a buffer does not start on a vector, and nearest resizing
// (resample.cu) are its ops; moving pixels one by one, 3 bytes a thread at
// RGB, took 1.55 times a copy at 7680x4320, and nearest 0.76 ms to enlarge
// 3840x2160 RGB to 15360x8640 (0.31 ms through here).
//
// An op, for pixels of PB bytes:
//   RowRun run(int y, int x0, int n_px) const
//     the input pixels that output row y's pixels x0 .. x0 + n_px - 1 come
//     from, as a run of one input row;
//   const unsigned char* place(const unsigned char* loaded, int shift, int x0, int n_px,
//                              unsigned char* spare) const
//     where the segment's output pixels lie, given the run staged in shared
//     memory at loaded + shift (loaded 16-byte aligned, shift on a pixel's
//     alignment): the run itself, or `spare`, which it fills then. Called
//     by all 32 lanes.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda_launch.hpp"
#include "row_io.cuh"

namespace gpuimg {

constexpr int kSegmentWarps = 8;
constexpr int kSegmentPerLane = 4;  // vectors a lane carries
// The most bytes of a segment, and of the run it comes from.
constexpr int kSegmentRoom = kRowRoom<kSegmentPerLane>;

struct RowRun {
  std::size_t first;  // the input pixel it starts at, counted from the image's first
  int pixels;
};

template <int PB, class Op>
__global__ void __launch_bounds__(32 * kSegmentWarps)
    row_segments_kernel(const unsigned char* __restrict__ src, const unsigned char* src_end,
                        unsigned char* __restrict__ dst, int out_w, int segment_px, long long segments, Op op) {
  __shared__ __align__(16) unsigned char stage[kSegmentWarps][2][kRowStageBytes<kSegmentPerLane>];
  unsigned char* loaded = stage[threadIdx.y][0];
  unsigned char* spare = stage[threadIdx.y][1];
  const int per_row = (out_w + segment_px - 1) / segment_px;
  const long long warps = static_cast<long long>(gridDim.x) * kSegmentWarps;
  for (long long seg = blockIdx.x * 1LL * kSegmentWarps + threadIdx.y; seg < segments; seg += warps) {
    const int y = static_cast<int>(seg / per_row);
    const int x0 = static_cast<int>(seg - 1LL * y * per_row) * segment_px;
    const int n_px = min(segment_px, out_w - x0);
    const RowRun r = op.run(y, x0, n_px);
    const int shift =
        copy_row_in<kSegmentPerLane>(src + r.first * PB, static_cast<std::size_t>(r.pixels) * PB, src, src_end, loaded);
    __syncwarp();
    const unsigned char* out = op.place(loaded, shift, x0, n_px, spare);
    __syncwarp();
    copy_row_out(out, dst + (static_cast<std::size_t>(y) * out_w + x0) * PB, n_px * PB);
    __syncwarp();  // the buffers are refilled for the next segment
  }
}

// `op` over the stage's output in segments of segment_px pixels, at most as
// many as kSegmentRoom holds, with their runs: two blocks for each that
// fits on the GPU at once, or fewer where the segments run out.
template <int PB, class Op> cudaError_t launch_row_segments(const CudaStage& s, int segment_px, const Op& op) {
  const long long segments = 1LL * s.out.height * ((s.out.width + segment_px - 1) / segment_px);
  int slots = 0;
  if (cudaError_t e = resident_blocks(row_segments_kernel<PB, Op>, 32 * kSegmentWarps, 0, slots); e != cudaSuccess)
    return e;
  const int blocks =
      static_cast<int>(std::clamp<long long>((segments + kSegmentWarps - 1) / kSegmentWarps, 1, 2LL * slots));
  const auto* src = static_cast<const unsigned char*>(s.src);
  row_segments_kernel<PB, Op><<<blocks, dim3(32, kSegmentWarps), 0, s.stream>>>(
      src, src + s.in.byte_size(), static_cast<unsigned char*>(s.dst), s.out.width, segment_px, segments, op);
  return cudaGetLastError();
}

}  // namespace gpuimg
