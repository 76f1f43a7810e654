// --resize in one kernel, for 8-bit images without alpha: a block makes a
// tile of kTileW x th output pixels. It loads the input pixels the tile
// reads into shared memory, a plane a channel; makes the horizontal pass
// of every input row the tile's vertical pass reads, into shared memory
// again, each output column's samples contiguous (a column of bytes); then
// the vertical pass from those columns, and writes the tile. The image
// crosses memory once each way, where the two passes (resample.cu) write
// and read back the intermediate image: 7680x4320 RGB to half size by
// lanczos3 took them 0.326 ms on the H100.
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

#include "resample_paths.hpp"

namespace gpuimg {
namespace {

constexpr int kTileW = 64;  // output columns a block
// Shared memory a block: the most for five blocks an H100 SM, and for two
// (within the 99 KB a block that other GPUs allow).
constexpr std::size_t kRoomForFive = 40 * 1024, kRoomForTwo = 96 * 1024;

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
// there: resample_pixel's sum, rounded.
template <int G>
__device__ __forceinline__ std::uint8_t run_sample(const std::uint32_t* words, unsigned shift,
                                                   const SplitWeights (&w)[G]) {
  std::uint32_t u[G + 1];
#pragma unroll
  for (int k = 0; k <= G; ++k) u[k] = words[k];
  std::uint32_t low = 1u << (kResampleBits - 1), middle = 0, high = 0;
#pragma unroll
  for (int k = 0; k < G; ++k) {
    const std::uint32_t d = __funnelshift_r(u[k], u[k + 1], shift);  // shifts by shift mod 32
    low = __dp4a(d, w[k].low, low);
    middle = __dp4a(d, w[k].middle, middle);
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

// The word of the image's bytes from byte 4 i, any bytes past `size` zero.
__device__ std::uint32_t image_word(const std::uint8_t* src, std::size_t i, std::size_t size) {
  std::uint32_t w = 0;
  for (std::size_t b = 4 * i; b < size && b < 4 * i + 4; ++b) w |= std::uint32_t(src[b]) << (8 * (b - 4 * i));
  return w;
}

// Four pixels of C channels from 4C bytes in C words, as a word a channel.
template <int C> __device__ __forceinline__ void planar(std::uint32_t (&w)[C]);
template <> __device__ __forceinline__ void planar<1>(std::uint32_t (&)[1]) {}
template <> __device__ __forceinline__ void planar<3>(std::uint32_t (&w)[3]) {
  // Bytes 0..11 are R G B of pixels 0..3: R at 0 3 6 9, G at 1 4 7 10, B at 2 5 8 11.
  const std::uint32_t r = __byte_perm(__byte_perm(w[0], w[1], 0x0630), w[2], 0x5210);
  const std::uint32_t g = __byte_perm(__byte_perm(w[0], w[1], 0x0741), w[2], 0x6210);
  const std::uint32_t b = __byte_perm(__byte_perm(w[0], w[1], 0x0052), w[2], 0x7410);
  w[0] = r, w[1] = g, w[2] = b;
}

// A block: kTileW output columns by C channels, kRowsAtOnce<C> rows of them
// at a time in the vertical pass (256 threads for gray, 192 for RGB).
template <int C> constexpr int kRowsAtOnce = C == 1 ? 4 : 1;
template <int C> constexpr int kBlockThreads = kTileW * C * kRowsAtOnce<C>;

template <int C, int G>
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
  const int x0 = blockIdx.x * kTileW, x1 = min(x0 + kTileW, out_w);
  const int y0 = blockIdx.y * layout.rows, y1 = min(y0 + layout.rows, out_h);
  const ResampleSpan sx = resample_span(tx, x0, x1), sy = resample_span(ty, y0, y1);
  const int width = x1 - x0, height = y1 - y0;
  const int plane_bytes = layout.in_rows * layout.in_pitch;

  for (int i = threadIdx.x; i < height * G; i += T)
    wy[i] = split_weights(ty.weights + std::ptrdiff_t(y0 + i / G) * ty.taps, ty.taps, i % G);
  for (int j = threadIdx.x; j < height; j += T) from_y[j] = ty.bounds[2 * (y0 + j)] - sy.first;

  // The input rows, four pixels a thread, a plane a channel; (r, q) steps
  // through the rows' groups without a division a step.
  const int groups = (sx.pixels + 3) / 4;
  const std::size_t size = std::size_t(in_w) * in_h * C;
  const int rows_a_step = T / groups, groups_a_step = T - rows_a_step * groups;
  for (int r = threadIdx.x / groups, q = threadIdx.x - r * groups; r < sy.pixels;) {
    const std::size_t at = (std::size_t(sy.first + r) * in_w + sx.first + 4 * q) * C;
    std::uint32_t u[C + 1], w[C];
    if (at / 4 * 4 + 4 * (C + 1) <= size) {
#pragma unroll
      for (int k = 0; k <= C; ++k) u[k] = reinterpret_cast<const std::uint32_t*>(src)[at / 4 + k];
    } else {
#pragma unroll
      for (int k = 0; k <= C; ++k) u[k] = image_word(src, at / 4 + k, size);
    }
#pragma unroll
    for (int k = 0; k < C; ++k) w[k] = __funnelshift_r(u[k], u[k + 1], 8 * (at % 4));
    planar<C>(w);
#pragma unroll
    for (int c = 0; c < C; ++c)
      reinterpret_cast<std::uint32_t*>(planes + c * plane_bytes + r * layout.in_pitch)[q] = w[c];
    r += rows_a_step, q += groups_a_step;
    if (q >= groups) q -= groups, ++r;
  }
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
        column[c * kTileW * layout.mid_pitch] = run_sample<G>(row + c * plane_words, 8 * from, wx);
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
        o[j * kTileW * C] = run_sample<G>(column + from / 4, 8 * from, w);
      }
    }
  }
  __syncthreads();

  // The tile's rows, by words where every output row starts on one.
  const int row_bytes = width * C;
  if (std::size_t(out_w) * C % 4 == 0) {
    const int words = row_bytes / 4;
    for (int i = threadIdx.x; i < height * words; i += T) {
      const int j = i / words, k = i - j * words;
      reinterpret_cast<std::uint32_t*>(dst + (std::size_t(y0 + j) * out_w + x0) * C)[k] =
          reinterpret_cast<const std::uint32_t*>(out + j * kTileW * C)[k];
    }
  } else {
    for (int i = threadIdx.x; i < height * row_bytes; i += T) {
      const int j = i / row_bytes, k = i - j * row_bytes;
      dst[(std::size_t(y0 + j) * out_w + x0) * C + k] = out[j * kTileW * C + k];
    }
  }
}

int round_up(int v, int m) { return (v + m - 1) / m * m; }

// The longest span of any tile of `n` outputs along a table of `len` outputs.
int longest_span(const ResampleTable& t, int len, int n) {
  int longest = 0;
  for (int i0 = 0; i0 < len; i0 += n)
    longest = std::max(longest, resample_span(t, i0, std::min(i0 + n, len)).pixels);
  return longest;
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
  l.out_at = l.mid_at + std::size_t(channels) * kTileW * l.mid_pitch;
  l.bytes = l.out_at + std::size_t(rows) * kTileW * channels;
  return l;
}

template <int C, int G>
cudaError_t launch(const CudaStage& s, const ResampleTables& t, const TileLayout& layout) {
  const auto kernel = tile_kernel<C, G>;
  // The limit belongs to the kernel, not the launch, and batch lanes launch
  // from several threads: always the same one, the most any layout takes.
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kRoomForTwo));
      e != cudaSuccess)
    return e;
  const dim3 grid((s.out.width + kTileW - 1) / kTileW, (s.out.height + layout.rows - 1) / layout.rows);
  kernel<<<grid, kBlockThreads<C>, layout.bytes, s.stream>>>(static_cast<const std::uint8_t*>(s.src),
                                                    static_cast<std::uint8_t*>(s.dst), s.in.width, s.in.height,
                                                    s.out.width, s.out.height, t.x, t.y, layout);
  return cudaGetLastError();
}

template <int C>
cudaError_t launch(const CudaStage& s, const ResampleTables& t, const TileLayout& layout, int groups) {
  switch (groups) {
    case 1: return launch<C, 1>(s, t, layout);
    case 2: return launch<C, 2>(s, t, layout);
    case 3: return launch<C, 3>(s, t, layout);
    case 4: return launch<C, 4>(s, t, layout);
    case 6: return launch<C, 6>(s, t, layout);
    case 8: return launch<C, 8>(s, t, layout);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace

cudaError_t launch_resample_tiles(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                  bool& ran) {
  ran = false;
  const int C = s.in.channels;
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 4 == 0; };
  if (s.in.bytes != 1 || (C != 1 && C != 3) || !aligned(s.src) || !aligned(s.dst) ||
      host.filter == ResizeFilter::nearest || host.x_kept || host.y_kept || !host.byte_weights ||
      host.x.taps > kMaxTileTaps || host.y.taps > kMaxTileTaps)
    return cudaSuccess;
  const int needed = (std::max(host.x.taps, host.y.taps) + 3) / 4;
  const int groups = needed <= 4 ? needed : (needed <= 6 ? 6 : 8);
  // The tallest tile that leaves room for five blocks an SM, else for two:
  // fewer input rows made twice where tiles meet, against more blocks to
  // hide each one's loads. At 7680x4320 RGB on the H100, halving by
  // lanczos3 took 0.188 ms in tiles of 16 rows (38 KB, five blocks), 0.213
  // in 32 (63 KB, three), 0.226 in 8; doubling took 0.230 in 64 rows (31
  // KB), 0.257 in 32.
  for (std::size_t most : {kRoomForFive, kRoomForTwo})
    for (int rows : {64, 32, 16, 8}) {
      const TileLayout layout = plan_layout(host, s.out.width, s.out.height, C, groups, rows);
      if (layout.bytes > most || (s.out.height + rows - 1) / rows > kMaxGridY) continue;
      ran = true;
      return C == 1 ? launch<1>(s, device, layout, groups) : launch<3>(s, device, layout, groups);
    }
  return cudaSuccess;
}

}  // namespace gpuimg
