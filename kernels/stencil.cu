// The stencil skeleton: one launch per stage of Kind::stencil, reading the
// stage's record and dispatching on its op id over the stencil ops
// (dispatch_switch.cuh). 8-bit rows of whole words take stencil_words.cu
// instead where the op allows (see fits_word_rows). A copy moves 16 bytes
// per load and per store; this kernel is built to do the same, because a
// stage that touches each sample a few times is otherwise limited by
// load/store instructions, not by memory.
//
// A block stages a 128x16 pixel tile plus its halo in shared
// memory, copied row by row in 16-byte vectors (the part inside the image;
// the H pixels past its left and right edges replicate the border). Each
// thread then lifts a window of 4 + 2H pixels by 2 + 2H rows into registers
// as 32-bit words, runs the op on 4 pixels of 2 rows, and packs the results
// into a staging row that its warp writes back in 16-byte vectors.
#include <algorithm>
#include <cstdint>

#include "cuda_launch.hpp"
#include "dispatch_switch.cuh"
#include "register_views.hpp"
#include "row_io.cuh"

namespace gpuimg {
namespace {

constexpr int kTileW = 128;   // pixels: 32 threads of 4 pixels
constexpr int kTileH = 16;    // rows: 8 warps of 2 rows
constexpr int kPixelsPerThread = 4;
constexpr int kRowsPerThread = 2;
constexpr int kWarps = kTileH / kRowsPerThread;

template <class T, int C, int H> struct TileShape {
  static constexpr int kPixelBytes = C * static_cast<int>(sizeof(T));
  static constexpr int kRows = kTileH + 2 * H;
  static constexpr int kRowBytes = (kTileW + 2 * H) * kPixelBytes;
  // A row lands kLeftRoom bytes in, so that the replicated pixels left of
  // the image fit before it; then room for it shifted by up to 15 bytes to
  // keep its vectors aligned, plus the word a thread reads past its window.
  static constexpr int kLeftRoom = (H * kPixelBytes + 15) / 16 * 16;
  static constexpr int kStride = (kLeftRoom + kRowBytes + 15 + 4 + 15) / 16 * 16;
  static constexpr int kOutBytes = kTileW * kPixelBytes;
  static constexpr int kOutStride = (kOutBytes + 16 + 15) / 16 * 16;
  static constexpr int kWindowWords = ((kPixelsPerThread + 2 * H) * kPixelBytes + 3) / 4;
  static constexpr int kThreadOutWords = kPixelsPerThread * kPixelBytes / 4;
  static constexpr int kSharedBytes = kRows * kStride + kTileH * kOutStride + kRows * 4;
};

template <class T, int C, int H>
__global__ void __launch_bounds__(32 * kWarps)
    tile_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height,
                const OpRecord* __restrict__ ops, int stage, int tiles_y) {
  using S = TileShape<T, C, H>;
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned char* tile = smem;
  unsigned char* staged = smem + S::kRows * S::kStride;
  int* shifts = reinterpret_cast<int*>(staged + kTileH * S::kOutStride);
  const OpRecord rec = ops[stage];  // a copy in registers, read once
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int ox = blockIdx.x * kTileW - H;
  // Tile pixels [left, right_from) lie in the image.
  const int lo_px = max(ox, 0), hi_px = min(ox + kTileW + 2 * H, width);
  const int left = lo_px - ox, right_from = hi_px - ox;
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  const unsigned char* in_end = in + static_cast<std::size_t>(width) * height * S::kPixelBytes;

  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int oy = ty * kTileH - H;
    for (int r = warp; r < S::kRows; r += kWarps) {
      const int sy = clamp_index(oy + r, height);
      unsigned char* row = tile + r * S::kStride;
      const int first = S::kLeftRoom - left * S::kPixelBytes +
                        copy_row_in<row_vectors_per_lane(S::kRowBytes)>(
                            in + (static_cast<std::size_t>(sy) * width + lo_px) * S::kPixelBytes,
                            (hi_px - lo_px) * S::kPixelBytes, in, in_end, row + S::kLeftRoom);
      // At the image's left and right edges, the border replicated: H
      // pixels on each side are all that outputs inside the image read.
      if (left > 0 || right_from < kTileW + 2 * H) {
        __syncwarp();
        replicate_edges<S::kPixelBytes>(row + first, left, right_from, min(right_from + H, kTileW + 2 * H));
      }
      if (lane == 0) shifts[r] = first;
    }
    __syncthreads();

    // This thread's window: pixels x0 - H .. x0 + 3 + H of tile rows
    // warp * 2 .. warp * 2 + 1 + 2H, as words.
    constexpr int kWinRows = kRowsPerThread + 2 * H;
    std::uint32_t win[kWinRows][S::kWindowWords];
#pragma unroll
    for (int j = 0; j < kWinRows; ++j) {
      const int r = warp * kRowsPerThread + j;
      const int at = lane * kPixelsPerThread * S::kPixelBytes + shifts[r];
      const auto* w = reinterpret_cast<const std::uint32_t*>(tile + r * S::kStride) + (at >> 2);
      std::uint32_t raw[S::kWindowWords + 1];
#pragma unroll
      for (int k = 0; k <= S::kWindowWords; ++k) raw[k] = w[k];
#pragma unroll
      for (int k = 0; k < S::kWindowWords; ++k) win[j][k] = __funnelshift_r(raw[k], raw[k + 1], 8 * (at & 3));
    }

    const int x0 = blockIdx.x * kTileW + lane * kPixelsPerThread;
    const int y0 = ty * kTileH + warp * kRowsPerThread;
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
      const WordWindowView<T, C, kWinRows, S::kWindowWords> view{win, x0 - H, y0 - H};
      union {
        T s[kPixelsPerThread * C];
        std::uint32_t w[S::kThreadOutWords];
      } out;
#pragma unroll
      for (int p = 0; p < kPixelsPerThread; ++p) dispatch<Kind::stencil>(view, x0 + p, y0 + i, rec, out.s + p * C);
      auto* o = reinterpret_cast<std::uint32_t*>(staged + (warp * kRowsPerThread + i) * S::kOutStride);
#pragma unroll
      for (int k = 0; k < S::kThreadOutWords; ++k) o[lane * S::kThreadOutWords + k] = out.w[k];
    }
    __syncwarp();

    const int x_begin = blockIdx.x * kTileW;
    const int n = (min(x_begin + kTileW, width) - x_begin) * S::kPixelBytes;
#pragma unroll
    for (int i = 0; i < kRowsPerThread; ++i) {
      const int y = y0 + i;
      if (y < height)
        copy_row_out(staged + (warp * kRowsPerThread + i) * S::kOutStride,
                     reinterpret_cast<unsigned char*>(dst) +
                         (static_cast<std::size_t>(y) * width + x_begin) * S::kPixelBytes,
                     n);
    }
    __syncthreads();  // the tile and staging rows are refilled for the next tile row
  }
}

template <class T, int C, int H> cudaError_t launch_tile(const CudaStage& s, const OpRecord* ops, int stage) {
  using S = TileShape<T, C, H>;
  const int tiles_x = (s.in.width + kTileW - 1) / kTileW;
  const int tiles_y = (s.in.height + kTileH - 1) / kTileH;
  const dim3 grid(tiles_x, std::min(tiles_y, kMaxGridY));
  tile_kernel<T, C, H><<<grid, dim3(32, kWarps), S::kSharedBytes, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.in.height, ops, stage, tiles_y);
  return cudaGetLastError();
}

template <class T, int C> cudaError_t launch(const CudaStage& s, const OpRecord* ops, int stage, int halo) {
  static_assert(kMaxStencilHalo == 1, "instantiate tile_kernel for every halo up to kMaxStencilHalo");
  return halo == 1 ? launch_tile<T, C, 1>(s, ops, stage) : cudaErrorInvalidValue;
}

template <class T> cudaError_t launch(const CudaStage& s, const OpRecord* ops, int stage, int halo) {
  return with_channels(s, [&](auto c) { return launch<T, decltype(c)::value>(s, ops, stage, halo); });
}

}  // namespace

cudaError_t launch_stencil(const CudaStage& s, const OpRecord& rec, const OpRecord* device_ops, int stage) {
  const bool aligned = (reinterpret_cast<std::uintptr_t>(s.src) | reinterpret_cast<std::uintptr_t>(s.dst)) % 16 == 0;
  if (rec.halo < 1 || rec.halo > kMaxStencilHalo || !aligned || s.in != s.out) return cudaErrorInvalidValue;
  if (fits_word_rows(s, rec)) return launch_word_rows(s, rec, device_ops, stage);
  return s.in.bytes == 1 ? launch<std::uint8_t>(s, device_ops, stage, rec.halo)
                                 : launch<std::uint16_t>(s, device_ops, stage, rec.halo);
}

}  // namespace gpuimg
