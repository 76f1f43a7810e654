// --resize in one kernel on the tensor cores, for 8-bit images without
// alpha whose runs are long (resample_paths.hpp): the tiles of
// resample_tiles.cuh, made by integer matrix products (mma m16n8k32: a
// 16x32 matrix of bytes times a 32x8 one, summed exactly in ints). A warp
// makes eight outputs of 16 lines at once: the 16 lines' bytes over 32
// inputs from a word boundary at or before the eight outputs' first input,
// times each output's weights at those inputs (zero outside its run);
// inputs past 32 take further chunks. The horizontal pass's lines are
// input rows, the vertical pass's the columns of the horizontal pass's
// output. The weights are 22-bit fixed point: each is split into its three
// bytes (low and middle unsigned, high signed), so sum = A + 2^8 B + 2^16
// H, A, B, H the products with each byte of the weights, each well inside
// an int. Their sum may pass 32 bits, but it is the exact sum that
// resample_pixel makes, which fits an int (resample.hpp), and unsigned
// arithmetic wraps to it.
//
// A matrix product costs the same for 1 tap or 32, and rounding each
// output costs more than resample_tiles.cu's dp4a sums of short runs: on
// the H100, 7680x4320 RGB halved by lanczos3 took 0.139 ms here and 0.188
// there, by box 0.128 here and 0.107 there.
#include <algorithm>
#include <cstdint>

#include "byte_mma.cuh"
#include "resample_tiles.cuh"

namespace gpuimg {
namespace {

using namespace resample_tiles;

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;

// A warp's weights for eight outputs, as mma's B operand: lane l holds
// output l / 4's weights at inputs base + 32 j + 16 h + 4 (l % 4) + i, i <
// 4, byte i of word [j][h], for each byte of the weights.
template <int NK> struct WeightFragments {
  std::uint32_t low[NK][2], middle[NK][2], high[NK][2];
  int chunks;  // of 32 inputs that the eight outputs read, at most NK
};

// `out`, this lane's output (valid or not), reads `count` inputs from
// `from`, both relative to the staged span; the warp's first lane has the
// first of the eight outputs.
template <int NK>
__device__ WeightFragments<NK> weight_fragments(const ResampleTable& t, int out, bool valid, int from, int& base) {
  const int count = valid ? t.bounds[2 * out + 1] : 0;
  base = __shfl_sync(~0u, from, 0) & ~3;
  int end = valid ? from + count - base : 0;
  for (int d = 16; d > 0; d /= 2) end = max(end, __shfl_xor_sync(~0u, end, d));
  WeightFragments<NK> f;
  f.chunks = (end + 31) / 32;
  const std::int32_t* w = t.weights + std::ptrdiff_t(valid ? out : 0) * t.taps;
  const int lane4 = threadIdx.x % 4;
#pragma unroll
  for (int j = 0; j < NK; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      std::uint32_t low = 0, middle = 0, high = 0;
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int k = base + 32 * j + 16 * h + 4 * lane4 + i - from;
        const std::uint32_t v = k >= 0 && k < count ? std::uint32_t(w[k]) : 0u;
        low |= (v & 0xff) << (8 * i);
        middle |= ((v >> 8) & 0xff) << (8 * i);
        high |= ((v >> 16) & 0xff) << (8 * i);
      }
      f.low[j][h] = low, f.middle[j][h] = middle, f.high[j][h] = high;
    }
  return f;
}

// The 16 x 8 outputs of 16 lines of bytes, `pitch` words apart from
// `line`, the word of lane l's line l / 4 that holds input base + 4 (l % 4):
// resample_pixel's sums, rounded, as mma's D (lane l: lines l / 4 and
// l / 4 + 8, outputs 2 (l % 4) and 2 (l % 4) + 1).
template <int NK>
__device__ __forceinline__ void line_outputs(const std::uint32_t* line, int pitch, const WeightFragments<NK>& f,
                                             std::uint8_t (&out)[4]) {
  // The first chunk's products start from constants, which stay in their
  // registers from call to call: resample_pixel's one half, and zero.
  // Accumulating into sums set before each call took eight moves of its
  // 47 instructions (ncu, lanczos3 halving on the H100).
  constexpr int kHalf = 1 << (kResampleBits - 1);
  constexpr int kHalves[4] = {kHalf, kHalf, kHalf, kHalf}, kZeros[4] = {0, 0, 0, 0};
  int low[4], middle[4], high[4];
  {
    const std::uint32_t a0[4] = {line[0], line[8 * pitch], line[4], line[8 * pitch + 4]};
    mma_bytes<false, false>(low, a0, f.low[0][0], f.low[0][1], kHalves);
    mma_bytes<false, false>(middle, a0, f.middle[0][0], f.middle[0][1], kZeros);
    mma_bytes<false, true>(high, a0, f.high[0][0], f.high[0][1], kZeros);
  }
#pragma unroll
  for (int j = 1; j < NK; ++j) {
    if (j >= f.chunks) break;
    const std::uint32_t aj[4] = {line[8 * j], line[8 * j + 8 * pitch], line[8 * j + 4], line[8 * j + 8 * pitch + 4]};
    mma_bytes<false, false>(low, aj, f.low[j][0], f.low[j][1], low);
    mma_bytes<false, false>(middle, aj, f.middle[j][0], f.middle[j][1], middle);
    mma_bytes<false, true>(high, aj, f.high[j][0], f.high[j][1], high);
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t sum = std::uint32_t(low[i]) + (std::uint32_t(middle[i]) << 8) + (std::uint32_t(high[i]) << 16);
    out[i] = resample_round<std::uint8_t>(static_cast<std::int32_t>(sum));
  }
}

// Shared memory, in bytes, as the host plans it for the longest spans.
// Lines are a multiple of 8 words apart plus 4, so that the eight lines
// and four words of an mma operand fall in 32 banks.
struct TileLayout {
  int rows;         // output rows a tile, 8, 16, 32, 64 or 128
  int share_shift;  // log2 of the warps that share a group of eight rows
  int in_rows;      // input rows a tile's planes hold: the most it reads, rounded up to 16
  int in_pitch;     // bytes a row of an input plane
  int mid_pitch;    // bytes a column of the horizontal pass
  std::size_t planes_at, mid_at, out_at, bytes;
};

// NK: the most chunks of 32 inputs that eight outputs read, along either
// axis. At least three blocks an SM: left free, the eight chunks' kernel
// took 95 registers (two blocks); the others stay within 64 (four).
template <int C, int NK>
__global__ void __launch_bounds__(kThreads, 3)
    tile_kernel(const std::uint8_t* __restrict__ src, std::uint8_t* __restrict__ dst, int in_w, int in_h, int out_w,
                int out_h, ResampleTable tx, ResampleTable ty, TileLayout layout) {
  extern __shared__ __align__(16) std::uint8_t shared[];
  std::uint8_t* planes = shared + layout.planes_at;
  std::uint8_t* mid = shared + layout.mid_at;
  std::uint8_t* out = shared + layout.out_at;
  const auto [x0, y0, width, height, sx, sy] = block_tile(tx, ty, out_w, out_h, layout.rows);
  const int plane_bytes = layout.in_rows * layout.in_pitch;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  stage_input<C, kThreads>(src, in_w, in_h, sx, sy, planes, plane_bytes, layout.in_pitch);
  __syncthreads();

  // The horizontal pass: warp w makes output columns 8w .. 8w + 7 of every
  // staged row, 16 at a time. Rows past the staged ones are whatever shared
  // memory holds; the vertical pass gives them zero weight.
  if (8 * warp < width) {
    const int x = 8 * warp + lane / 4;
    const bool valid = x < width;
    int base;
    const WeightFragments<NK> f =
        weight_fragments<NK>(tx, x0 + x, valid, valid ? tx.bounds[2 * (x0 + x)] - sx.first : 0, base);
    const int pitch = layout.in_pitch / 4, mid_pitch = layout.mid_pitch;
    const auto* lines = reinterpret_cast<const std::uint32_t*>(planes) + (lane / 4) * pitch + base / 4 + lane % 4;
    std::uint8_t* columns = mid + (8 * warp + 2 * (lane % 4)) * mid_pitch + lane / 4;
    for (int c = 0; c < C; ++c) {
      const std::uint32_t* line = lines + c * (plane_bytes / 4);
      std::uint8_t* to = columns + c * kTileW * mid_pitch;
      for (int r = 0; r < sy.pixels; r += 16, line += 16 * pitch, to += 16) {
        std::uint8_t v[4];
        line_outputs<NK>(line, pitch, f, v);
        to[0] = v[0], to[mid_pitch] = v[1], to[8] = v[2], to[mid_pitch + 8] = v[3];
      }
    }
  }
  __syncthreads();

  // The vertical pass, by groups of eight output rows: where a tile has
  // fewer groups than warps, each group takes kWarps / groups warps, which
  // share its 4C blocks of 16 columns; where it has more, a warp takes
  // every kWarps-th group, all its blocks.
  {
    const unsigned shares = 1u << layout.share_shift, share = warp & (shares - 1);
    const int pitch = layout.mid_pitch / 4;
    for (int j0 = 8 * (warp >> layout.share_shift); j0 < height; j0 += 8 * (kWarps >> layout.share_shift)) {
      const int j = j0 + lane / 4;
      const bool valid = j < height;
      int base;
      const WeightFragments<NK> f =
          weight_fragments<NK>(ty, y0 + j, valid, valid ? ty.bounds[2 * (y0 + j)] - sy.first : 0, base);
      const auto* words = reinterpret_cast<const std::uint32_t*>(mid) + (lane / 4) * pitch + base / 4 + lane % 4;
      std::uint8_t* outputs = out + (j0 + 2 * (lane % 4)) * kTileW * C + (lane / 4) * C;
      for (unsigned b = share; b < 4 * C; b += shares) {
        // Block b is columns 16 (b % 4) .. + 15 of channel b / 4.
        const unsigned block = b % 4, channel = b / 4;
        if (16 * block >= unsigned(width)) continue;
        std::uint8_t v[4];
        line_outputs<NK>(words + 16 * b * pitch, pitch, f, v);
        std::uint8_t* to = outputs + 16 * block * C + channel;
        to[0] = v[0], to[kTileW * C] = v[1], to[8 * C] = v[2], to[kTileW * C + 8 * C] = v[3];
      }
    }
  }
  __syncthreads();

  store_tile<C, kThreads>(out, dst, out_w, x0, y0, width, height);
}

// The least number of words at least `bytes` long that is 4 past a multiple of 8.
int line_words(int bytes) {
  const int words = (bytes + 3) / 4;
  return words + (12 - words % 8) % 8;
}

// The most chunks of 32 inputs that eight outputs from a multiple of eight
// read, from a word boundary up to three inputs before their first.
int most_chunks(const ResampleTable& t, int len) {
  int most = 0;
  for (int i0 = 0; i0 < len; i0 += 8) {
    const ResampleSpan s = resample_span(t, i0, std::min(i0 + 8, len));
    most = std::max(most, (s.pixels + 3 + 31) / 32);
  }
  return most;
}

TileLayout plan_layout(const ResampleTables& host, int out_w, int out_h, int channels, int chunks, int rows) {
  TileLayout l{};
  l.rows = rows;
  for (int shares = kWarps * 8 / rows; shares > 1; shares /= 2) ++l.share_shift;
  l.in_rows = round_up(longest_span(host.y, out_h, rows), 16);
  l.in_pitch = 4 * line_words(longest_span(host.x, out_w, kTileW));
  l.mid_pitch = 4 * line_words(l.in_rows);
  // A line's last chunk reads up to 32 chunks bytes past its end: the next
  // line's, and past the last line, a pad (read, given zero weight, and
  // written by nobody while it is read).
  const std::size_t pad = 32 * std::size_t(chunks);
  l.planes_at = 0;
  l.mid_at = l.planes_at + std::size_t(channels) * l.in_rows * l.in_pitch + pad;
  l.out_at = out_tile_at(l.mid_at + std::size_t(channels) * kTileW * l.mid_pitch + pad);
  l.bytes = l.out_at + std::size_t(rows) * kTileW * channels;
  return l;
}

template <int C>
cudaError_t launch(const CudaStage& s, const ResampleTables& t, const TileLayout& layout, int chunks) {
  switch (chunks) {
    case 1: return launch_tiles(tile_kernel<C, 1>, kThreads, s, t, layout);
    case 2: return launch_tiles(tile_kernel<C, 2>, kThreads, s, t, layout);
    case 4: return launch_tiles(tile_kernel<C, 4>, kThreads, s, t, layout);
    case 8: return launch_tiles(tile_kernel<C, 8>, kThreads, s, t, layout);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace

cudaError_t launch_resample_mma_tiles(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                      bool& ran) {
  ran = false;
  const int needed = std::max(most_chunks(host.x, s.out.width), most_chunks(host.y, s.out.height));
  if (needed > kMaxTileChunks) return cudaSuccess;
  bool mma = false;
  if (cudaError_t e = compiled_for_byte_mma(tile_kernel<1, 1>, mma); e != cudaSuccess || !mma) return e;
  const int chunks = needed <= 2 ? needed : (needed <= 4 ? 4 : 8);
  // Room for four blocks an SM, else two. At 7680x4320 RGB on the H100,
  // halving by lanczos3 took 0.139 ms in tiles of 32 rows (55 KB, four
  // blocks), 0.158 in 16; doubling took 0.217 in 64 rows (28 KB), 0.275 in
  // 32, and 0.140 in 128 rows (52 KB): the horizontal pass makes 16 rows
  // at once, so a tile of 64 rows made 48 for the 37 it reads.
  const int C = s.in.channels;
  TileLayout layout;
  if (!tallest_tile(kRoomForFour, kRoomForTwo, s.out.height,
                    [&](int rows) { return plan_layout(host, s.out.width, s.out.height, C, chunks, rows); }, layout,
                    128))
    return cudaSuccess;
  ran = true;
  return C == 1 ? launch<1>(s, device, layout, chunks) : launch<3>(s, device, layout, chunks);
}

}  // namespace gpuimg
