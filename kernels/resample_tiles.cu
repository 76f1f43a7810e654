// --resize in one kernel, for 8-bit images without alpha and runs shorter
// than kMmaTileTaps (resample_paths.hpp; longer ones take the tensor
// cores, resample_tiles_mma.cu): a block makes a tile of kTileW x th
// output pixels. It loads the input pixels the tile reads into shared
// memory, a plane a channel (resample_tiles.cuh); makes the horizontal
// pass of every input row the tile's vertical pass reads, into shared
// memory again, each output column's samples contiguous (a column of
// bytes); then the vertical pass from those columns, and writes the tile.
// The image crosses memory once each way, where the two passes
// (resample.cu) write and read back the intermediate image: 7680x4320 RGB
// to half size by lanczos3 took them 0.326 ms on the H100.
//
// Both passes sum a run of bytes that lie side by side in shared memory:
// four taps at a time, by dp4a (four byte products and a sum in one
// instruction), with each weight split into its three bytes (low and middle
// unsigned, high signed): sum = A + 2^8 B + 2^16 H, A, B, H the dot
// products of the samples with each byte of the weights. The parts may
// pass 32 bits, but their sum, the exact sum that resample_pixel makes,
// fits an int (resample.hpp), and unsigned arithmetic wraps to it.
#include <algorithm>
#include <cstdint>

#include "resample_tiles.cuh"

namespace gpuimg {
namespace {

using namespace resample_tiles;

// Four taps' weights, split by byte: tap k's in byte k of each word.
struct SplitWeights {
  std::uint32_t low, middle, high, unused;
};

// The weights w[0 .. n) of one output, groups of four from tap 4g, zero past n.
GPUIMG_HD SplitWeights split_weights(const std::int32_t* w, int n, int g) {
  SplitWeights s{0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    const std::int32_t v = 4 * g + k < n ? w[4 * g + k] : 0;
    s.low |= std::uint32_t(v & 0xff) << (8 * k);
    s.middle |= std::uint32_t((v >> 8) & 0xff) << (8 * k);
    s.high |= std::uint32_t((v >> 16) & 0xff) << (8 * k);
  }
  return s;
}

__device__ __forceinline__ std::uint32_t dot_signed(std::uint32_t signed_bytes, std::uint32_t bytes,
                                                    std::uint32_t acc) {
  std::uint32_t d;
  asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(signed_bytes), "r"(bytes), "r"(acc));
  return d;
}

// The output sample of G groups of taps over the bytes from byte shift / 8
// (mod 4) of words[0] on, in shared memory, which holds G + 1 words from
// there: resample_pixel's sum, rounded. Where every weight is a multiple of
// 2^16 (High), the low and middle bytes are zero and their products skipped.
template <int G, bool High>
__device__ __forceinline__ std::uint8_t run_sample(const std::uint32_t* words, unsigned shift,
                                                   const SplitWeights (&w)[G]) {
  std::uint32_t u[G + 1];
#pragma unroll
  for (int k = 0; k <= G; ++k) u[k] = words[k];
  std::uint32_t low = 1u << (kResampleBits - 1), middle = 0, high = 0;
#pragma unroll
  for (int k = 0; k < G; ++k) {
    const std::uint32_t d = __funnelshift_r(u[k], u[k + 1], shift);  // shifts by shift mod 32
    if constexpr (!High) {
      low = __dp4a(d, w[k].low, low);
      middle = __dp4a(d, w[k].middle, middle);
    }
    high = dot_signed(w[k].high, d, high);
  }
  return resample_round<std::uint8_t>(static_cast<std::int32_t>(low + (middle << 8) + (high << 16)));
}

// Shared memory, in bytes, as the host plans it for the longest spans.
struct TileLayout {
  int rows;        // output rows a tile
  int in_rows;     // input rows a tile reads, at most
  int in_pitch;    // bytes a row of an input plane
  int mid_pitch;   // bytes a column of the horizontal pass, a multiple of 4 words apart plus one
  std::size_t weights_at, from_at, planes_at, mid_at, out_at, bytes;
};

// A block: kTileW output columns by C channels, kRowsAtOnce<C> rows of them
// at a time in the vertical pass (256 threads for gray, 192 for RGB).
template <int C> constexpr int kRowsAtOnce = C == 1 ? 4 : 1;
template <int C> constexpr int kBlockThreads = kTileW * C * kRowsAtOnce<C>;

template <int C, int G, bool High>
__global__ void __launch_bounds__(kBlockThreads<C>)
    tile_kernel(const std::uint8_t* __restrict__ src, std::uint8_t* __restrict__ dst, int in_w, int in_h, int out_w,
                int out_h, ResampleTable tx, ResampleTable ty, TileLayout layout) {
  constexpr int T = kBlockThreads<C>;
  extern __shared__ __align__(16) std::uint8_t shared[];
  auto* wy = reinterpret_cast<SplitWeights*>(shared + layout.weights_at);
  auto* from_y = reinterpret_cast<int*>(shared + layout.from_at);
  std::uint8_t* planes = shared + layout.planes_at;
  std::uint8_t* mid = shared + layout.mid_at;
  std::uint8_t* out = shared + layout.out_at;
  const auto [x0, y0, width, height, sx, sy] = block_tile(tx, ty, out_w, out_h, layout.rows);
  const int plane_bytes = layout.in_rows * layout.in_pitch;

  for (int i = threadIdx.x; i < height * G; i += T)
    wy[i] = split_weights(ty.weights + std::ptrdiff_t(y0 + i / G) * ty.taps, ty.taps, i % G);
  for (int j = threadIdx.x; j < height; j += T) from_y[j] = ty.bounds[2 * (y0 + j)] - sy.first;

  stage_input<C, T>(src, in_w, in_h, sx, sy, planes, plane_bytes, layout.in_pitch);
  __syncthreads();

  // The horizontal pass: a thread an output column, its weights in
  // registers, every C-th row (gray: every fourth).
  const int x = threadIdx.x % kTileW;
  if (x < width) {
    SplitWeights wx[G];
    const std::int32_t* w = tx.weights + std::ptrdiff_t(x0 + x) * tx.taps;
#pragma unroll
    for (int g = 0; g < G; ++g) wx[g] = split_weights(w, tx.taps, g);
    const int from = tx.bounds[2 * (x0 + x)] - sx.first;
    constexpr int kStep = T / kTileW;
    const int r0 = threadIdx.x / kTileW;
    const int pitch_words = layout.in_pitch / 4, plane_words = plane_bytes / 4;
    const auto* row = reinterpret_cast<const std::uint32_t*>(planes) + r0 * pitch_words + from / 4;
    std::uint8_t* column = mid + x * layout.mid_pitch + r0;
    for (int r = r0; r < sy.pixels; r += kStep, row += kStep * pitch_words, column += kStep)
#pragma unroll
      for (int c = 0; c < C; ++c)
        column[c * kTileW * layout.mid_pitch] = run_sample<G, High>(row + c * plane_words, 8 * from, wx);
  }
  __syncthreads();

  // The vertical pass: a thread a column of the horizontal pass's output.
  {
    const int col = threadIdx.x % (kTileW * C), c = col / kTileW, xi = col - c * kTileW;
    if (xi < width) {
      const auto* column = reinterpret_cast<const std::uint32_t*>(mid + col * layout.mid_pitch);
      std::uint8_t* o = out + xi * C + c;
      for (int j = threadIdx.x / (kTileW * C); j < height; j += kRowsAtOnce<C>) {
        SplitWeights w[G];
#pragma unroll
        for (int g = 0; g < G; ++g) w[g] = wy[j * G + g];
        const int from = from_y[j];
        o[j * kTileW * C] = run_sample<G, High>(column + from / 4, 8 * from, w);
      }
    }
  }
  __syncthreads();

  store_tile<C, T>(out, dst, out_w, x0, y0, width, height);
}

TileLayout plan_layout(const ResampleTables& host, int out_w, int out_h, int channels, int groups, int rows) {
  TileLayout l{};
  l.rows = rows;
  l.in_rows = longest_span(host.y, out_h, rows);
  // A run reads G + 1 words from its first byte's word: room past the span for them.
  l.in_pitch = 4 * ((longest_span(host.x, out_w, kTileW) + 3) / 4 + groups + 1);
  l.mid_pitch = round_up(4 * ((l.in_rows + 3) / 4 + groups + 1), 8) + 4;  // an odd number of words
  l.weights_at = 0;
  l.from_at = std::size_t(rows) * groups * sizeof(SplitWeights);
  l.planes_at = l.from_at + std::size_t(rows) * sizeof(int);
  l.mid_at = l.planes_at + std::size_t(channels) * l.in_rows * l.in_pitch;
  l.out_at = out_tile_at(l.mid_at + std::size_t(channels) * kTileW * l.mid_pitch);
  l.bytes = l.out_at + std::size_t(rows) * kTileW * channels;
  return l;
}

template <int C, bool High>
cudaError_t launch(const CudaStage& s, const ResampleTables& t, const TileLayout& layout, int groups) {
  switch (groups) {
    case 1: return launch_tiles(tile_kernel<C, 1, High>, kBlockThreads<C>, s, t, layout);
    case 2: return launch_tiles(tile_kernel<C, 2, High>, kBlockThreads<C>, s, t, layout);
    default: return cudaErrorInvalidValue;
  }
}

template <int C>
cudaError_t launch(const CudaStage& s, const ResampleTables& t, const TileLayout& layout, int groups, bool high) {
  return high ? launch<C, true>(s, t, layout, groups) : launch<C, false>(s, t, layout, groups);
}

}  // namespace

cudaError_t launch_resample_tiles(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                  bool& ran) {
  ran = false;
  const int C = s.in.channels;
  if (s.in.bytes != 1 || (C != 1 && C != 3) || !aligned_to(s.src, 4) || !aligned_to(s.dst, 4) ||
      host.filter == ResizeFilter::nearest || host.x_kept || host.y_kept || !host.byte_weights)
    return cudaSuccess;
  const int taps = std::max(host.x.taps, host.y.taps);
  if (taps >= kMmaTileTaps) return launch_resample_mma_tiles(s, device, host, ran);
  const int groups = (taps + 3) / 4;  // 1 or 2
  // Room for five blocks an SM, else two. Measured at 7680x4320 RGB on the
  // H100 when lanczos3 ran here: halving took 0.188 ms in tiles of 16 rows
  // (38 KB, five blocks), 0.213 in 32 (63 KB, three), 0.226 in 8; doubling
  // took 0.230 in 64 rows (31 KB), 0.257 in 32.
  TileLayout layout;
  if (!tallest_tile(kRoomForFive, kRoomForTwo, s.out.height,
                    [&](int rows) { return plan_layout(host, s.out.width, s.out.height, C, groups, rows); }, layout))
    return cudaSuccess;
  ran = true;
  return C == 1 ? launch<1>(s, device, layout, groups, host.high_bytes)
                : launch<3>(s, device, layout, groups, host.high_bytes);
}

}  // namespace gpuimg
