// The median for R = 1 to Median::kMaxGpuNetworkRadius: selection networks
// in registers (median_select.hpp), two samples to a 32-bit word.
//
// A block stages a 64x16 pixel tile plus its halo in shared memory (16-byte
// vectors, border replicated), then repacks it by channel: word (r, x) of
// a channel's plane holds the samples of rows r and r + 1 at pixel x, one a
// 16-bit half. Each thread takes two pixels of two rows: one word is then
// the same window sample for both rows, and Hopper's min and max work on
// both halves in one instruction (VIMNMX.U16x2, three-way VIMNMX3), so
// every step of a network serves two outputs. The thread's two pixels
// share all but one column of their windows: R = 1 sorts each of the four
// columns once and takes both medians from them; larger R take in the
// shared columns once and finish each window with its own column.
// Results go back through a staging row per output row, 16-byte vectors
// out.
#include <algorithm>
#include <cstdint>
#include <utility>

#include "median_paths.hpp"
#include "median_select.hpp"
#include "pair_min_max.cuh"
#include "median_tile.cuh"

namespace gpuimg {
namespace {

constexpr int kTileW = 64;  // pixels: 32 threads of 2
constexpr int kTileH = 16;  // rows: 8 warps of 2
constexpr int kWarps = kTileH / 2;
// Blocks an SM should hold at least (0: left to ptxas). Left to itself,
// ptxas gave R = 3 64 registers and spilled; asked for two blocks it gives
// R = 2 and 3 up to 128 spill-free, and R = 1 needs 48 to 64.
template <int R> constexpr int kMinBlocks = R == 1 ? 0 : 2;

template <class T, int C, int R> struct NetworkTile {
  static constexpr int kPixelBytes = C * static_cast<int>(sizeof(T));
  static constexpr int kPixels = kTileW + 2 * R;   // a staged row, halo included
  static constexpr int kRows = kTileH + 2 * R;
  static constexpr int kPairRows = kRows - 1;      // plane rows: rows r and r + 1
  static constexpr int kPlaneStride = kPixels;     // words; even, so a lane's word pairs are 8-byte aligned
  static constexpr int kInStride = tile_stride(kPixels, R, kPixelBytes);
  static constexpr int kInBytes = kRows * kInStride;
  static constexpr int kPlaneWords = kPairRows * kPlaneStride;
  static constexpr int kOutStride = round_up(kTileW * kPixelBytes + 16, 16);
  static constexpr int kSharedBytes = kInBytes + C * kPlaneWords * 4 + kTileH * kOutStride + kRows * 4;
  static constexpr int kVectorsPerLane = row_vectors_per_lane(kPixels * kPixelBytes);
  static constexpr int kWindowCols = 2 + 2 * R;  // the thread's two pixels' windows
};

// The medians of the thread's two windows, from their words
// w[row][column]: columns 0 .. 2R for the first pixel, 1 .. 2R + 1 for the
// second.
template <int R>
__device__ __forceinline__ void two_medians(const std::uint32_t (&w)[2 * R + 1][2 * R + 2], std::uint32_t& first,
                                            std::uint32_t& second) {
  using Ops = PairMinMax;
  if constexpr (R == 1) {
    SortedColumn<std::uint32_t> col[4];
#pragma unroll
    for (int x = 0; x < 4; ++x) col[x] = sort_column<std::uint32_t, Ops>(w[0][x], w[1][x], w[2][x]);
    first = median9<std::uint32_t, Ops>(col[0], col[1], col[2]);
    second = median9<std::uint32_t, Ops>(col[1], col[2], col[3]);
  } else {
    constexpr int K = 2 * R + 1, N = K * K, Shared = K * (K - 1);
    using Select = ForgetfulSelection<std::uint32_t, Ops>;
    // The shared columns 1 .. 2R row by row, then the window's own column.
    const auto shared = [&](auto i) {
      constexpr int I = decltype(i)::value;
      return w[I / (K - 1)][1 + I % (K - 1)];
    };
    const auto held = Select::template take_shared<N, Shared>(shared);
    first = Select::template finish<N, Shared>(held, [&](auto i) { return w[decltype(i)::value - Shared][0]; });
    second = Select::template finish<N, Shared>(held, [&](auto i) { return w[decltype(i)::value - Shared][K]; });
  }
}

template <class T, int C, int R>
__global__ void __launch_bounds__(32 * kWarps, kMinBlocks<R>)
    median_network_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height, int tiles_y,
                          PassTables tables) {
  using S = NetworkTile<T, C, R>;
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned char* tile = smem;
  auto* planes = reinterpret_cast<std::uint32_t*>(smem + S::kInBytes);
  unsigned char* staged = smem + S::kInBytes + C * S::kPlaneWords * 4;
  int* first = reinterpret_cast<int*>(staged + kTileH * S::kOutStride);
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int ox = blockIdx.x * kTileW - R;

  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int oy = ty * kTileH - R;
    stage_tile<S::kPixelBytes, S::kVectorsPerLane>(reinterpret_cast<const unsigned char*>(src), width, height, ox,
                                                   oy, S::kPixels, S::kRows, R, tile, first);
    __syncthreads();

    // Repack, a plane row a warp: word (r, x) of plane c is sample (x, r) |
    // sample (x, r + 1) << 16.
    for (int row = warp; row < C * S::kPairRows; row += kWarps) {
      const int c = row / S::kPairRows, r = row - c * S::kPairRows;
      const auto* upper = reinterpret_cast<const T*>(tile + r * S::kInStride + first[r]) + c;
      const auto* lower = reinterpret_cast<const T*>(tile + (r + 1) * S::kInStride + first[r + 1]) + c;
      std::uint32_t* out = planes + c * S::kPlaneWords + r * S::kPlaneStride;
      for (int x = lane; x < S::kPixels; x += 32)
        out[x] = static_cast<std::uint32_t>(upper[x * C]) | static_cast<std::uint32_t>(lower[x * C]) << 16;
    }
    __syncthreads();

    // This thread: pixels 2 * lane and 2 * lane + 1 of tile rows 2 * warp
    // and 2 * warp + 1; window columns from tile pixel 2 * lane (that is,
    // R left of its first pixel), window rows from plane row 2 * warp.
    unsigned char* out_upper = staged + 2 * warp * S::kOutStride;
    unsigned char* out_lower = out_upper + S::kOutStride;
#pragma unroll 1
    for (int c = 0; c < C; ++c) {
      std::uint32_t w[2 * R + 1][S::kWindowCols];
      const std::uint32_t* plane = planes + c * S::kPlaneWords + 2 * warp * S::kPlaneStride + 2 * lane;
#pragma unroll
      for (int dy = 0; dy <= 2 * R; ++dy)
#pragma unroll
        for (int dx = 0; dx < S::kWindowCols; dx += 2) {
          const uint2 pair = *reinterpret_cast<const uint2*>(plane + dy * S::kPlaneStride + dx);
          w[dy][dx] = pair.x;
          w[dy][dx + 1] = pair.y;
        }
      std::uint32_t m[2];
      two_medians<R>(w, m[0], m[1]);
      // A fused pass's tables are monotone, so the median of the looked-up
      // window is the looked-up median: both apply here, load then store.
      const bool mapped = tables.any() && !is_alpha(c, C);
      const auto finish = [&](std::uint32_t v) {
        if (mapped) {
          if (tables.load) v = __ldg(tables.load + 1 + v);
          if (tables.store) v = __ldg(tables.store + 1 + v);
        }
        return static_cast<T>(v);
      };
#pragma unroll
      for (int p = 0; p < 2; ++p) {
        const int at = ((2 * lane + p) * C + c) * static_cast<int>(sizeof(T));
        *reinterpret_cast<T*>(out_upper + at) = finish(m[p] & 0xffffu);
        *reinterpret_cast<T*>(out_lower + at) = finish(m[p] >> 16);
      }
    }
    __syncwarp();

    const int x_begin = blockIdx.x * kTileW;
    const int n = (min(x_begin + kTileW, width) - x_begin) * S::kPixelBytes;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int y = ty * kTileH + 2 * warp + i;
      if (y < height)
        copy_row_out(staged + (2 * warp + i) * S::kOutStride,
                     reinterpret_cast<unsigned char*>(dst) + (static_cast<std::size_t>(y) * width + x_begin) *
                                                                 S::kPixelBytes,
                     n);
    }
    __syncthreads();  // the tile, planes and staging rows are refilled for the next tile row
  }
}

template <class T, int C, int R> cudaError_t launch(const CudaStage& s) {
  using S = NetworkTile<T, C, R>;
  const auto kernel = median_network_kernel<T, C, R>;
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::kSharedBytes);
      e != cudaSuccess)
    return e;
  const int tiles_x = (s.in.width + kTileW - 1) / kTileW;
  const int tiles_y = (s.in.height + kTileH - 1) / kTileH;
  const dim3 grid(tiles_x, std::min(tiles_y, kMaxGridY));
  kernel<<<grid, dim3(32, kWarps), S::kSharedBytes, s.stream>>>(static_cast<const T*>(s.src),
                                                                 static_cast<T*>(s.dst), s.in.width, s.in.height,
                                                                 tiles_y, s.tables);
  return cudaGetLastError();
}

template <class T, int R> cudaError_t launch(const CudaStage& s) {
  return with_channels(s, [&](auto c) { return launch<T, decltype(c)::value, R>(s); });
}

template <class T, int... R> cudaError_t launch(const CudaStage& s, int radius, std::integer_sequence<int, R...>) {
  cudaError_t result = cudaErrorInvalidValue;
  ((radius == R + 1 ? (result = launch<T, R + 1>(s), 0) : 0), ...);
  return result;
}

}  // namespace

cudaError_t launch_median_networks(const CudaStage& s, int radius) {
  constexpr auto radii = std::make_integer_sequence<int, Median::kMaxGpuNetworkRadius>{};
  return s.in.bytes == 1 ? launch<std::uint8_t>(s, radius, radii) : launch<std::uint16_t>(s, radius, radii);
}

}  // namespace gpuimg
