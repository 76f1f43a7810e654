// --resize to exactly half of each side by a filter whose runs are two or
// four inputs there (box, linear), on 8-bit images without alpha: no tile
// in shared memory. Away from the edges such a resize is steady: output i
// reads inputs 2 i + offset onwards with the same weights (ResampleSteady,
// planned on the host), so a thread can keep them in registers and make a
// strip of four output pixels down a band of rows, reading each input row
// of the strip once as words straight from global memory, its horizontal
// sums for the last rows the vertical pass reads kept in registers. The
// outputs around the steady rectangle (an edge row or column or two, and
// the columns left over from whole strips) are made one by one from the
// tables, by the launch's first rows of blocks.
//
// Halving 7680x4320 RGB on the H100 in the tiles (resample_tiles.cu) took
// 0.102 ms by linear and 0.091 by box, where the memory's limit is near
// 0.045 and NPP's linear, which reads two taps, 0.058: the tiles spend 70%
// of the issue slots staging, summing and storing. Here: linear 0.067,
// box 0.054.
#include <algorithm>
#include <cstdint>

#include "resample_paths.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 128;  // threads a block, along the rows
constexpr int kFrameRows = 64;  // the most rows of blocks for the frame

// Byte b of words w, b known at compile time.
template <int W> __device__ __forceinline__ std::uint32_t byte_of(const std::uint32_t (&w)[W], int b) {
  return (w[b / 4] >> (8 * (b % 4))) & 0xffu;
}

template <int N> struct SteadyWeights {
  std::int32_t w[N];
};

// The strip's input words of one row, from the word holding its first byte.
template <int C, int N> struct StripRow {
  static constexpr int kBytes = C * (2 * (kSteadyStrip - 1) + N);
  static constexpr int kWords = (kBytes + 3) / 4 + 1;  // the first byte may lie anywhere in its word
  std::uint32_t u[kWords];

  // `needed` of the words are the strip's; the rest may lie past the image.
  __device__ __forceinline__ void load(const std::uint32_t* from, int needed) {
#pragma unroll
    for (int k = 0; k < kWords; ++k) u[k] = k < needed ? __ldg(from + k) : 0u;
  }

  // The horizontal pass's outputs: sample c of the strip's pixel j at byte
  // C j + c of h, which holds them as C words (a row of the output's bytes).
  __device__ __forceinline__ void sums(unsigned shift, const SteadyWeights<N>& w, std::uint32_t (&h)[C]) const {
    std::uint32_t a[kWords - 1];
#pragma unroll
    for (int k = 0; k < kWords - 1; ++k) a[k] = __funnelshift_r(u[k], u[k + 1], shift);
#pragma unroll
    for (int i = 0; i < C; ++i) h[i] = 0;
#pragma unroll
    for (int j = 0; j < kSteadyStrip; ++j)
#pragma unroll
      for (int c = 0; c < C; ++c) {
        std::int32_t sum = std::int32_t{1} << (kResampleBits - 1);
#pragma unroll
        for (int k = 0; k < N; ++k) sum += w.w[k] * std::int32_t(byte_of(a, C * (2 * j + k) + c));
        h[(C * j + c) / 4] |= std::uint32_t(resample_round<std::uint8_t>(sum)) << (8 * ((C * j + c) % 4));
      }
  }
};

// What a launch makes: the steady rectangle of whole strips (steady_rect),
// in bands; and the frame, every other output.
struct SteadyLaunch {
  int in_w, out_w;
  SteadyRect r;
  int offset_x, offset_y;
  int band;         // output rows a thread makes
  int frame_rows;   // rows of blocks for the frame, the grid's first; the rest make the rectangle in bands
  long long frame;  // output pixels outside the rectangle
};

__device__ __forceinline__ void frame_pixel(const SteadyLaunch& l, long long p, int& x, int& y) {
  const SteadyRect& r = l.r;
  const long long top = 1LL * r.y0 * l.out_w;
  const int side = r.x0 + (l.out_w - r.x1);
  const long long middle = 1LL * (r.y1 - r.y0) * side;
  if (p < top) {
    y = static_cast<int>(p / l.out_w), x = static_cast<int>(p - 1LL * y * l.out_w);
  } else if (p < top + middle) {
    const long long q = p - top;
    const int row = static_cast<int>(q / side), i = static_cast<int>(q - 1LL * row * side);
    y = r.y0 + row, x = i < r.x0 ? i : r.x1 + (i - r.x0);
  } else {
    const long long q = p - top - middle;
    const int row = static_cast<int>(q / l.out_w);
    y = r.y1 + row, x = static_cast<int>(q - 1LL * row * l.out_w);
  }
}

// One output pixel from the tables: resample_pixel's horizontal sum of
// each row its vertical run reads, rounded, then their vertical sum.
template <int C>
__device__ void table_pixel(const std::uint8_t* src, int in_w, const ResampleTable& tx, const ResampleTable& ty,
                            int x, int y, std::uint8_t* out) {
  const int fy = ty.bounds[2 * y], ny = ty.bounds[2 * y + 1];
  std::int32_t vertical[C];
#pragma unroll
  for (int c = 0; c < C; ++c) vertical[c] = std::int32_t{1} << (kResampleBits - 1);
  for (int k = 0; k < ny; ++k) {
    std::uint8_t h[C];
    resample_pixel<std::uint8_t, C>(src + std::size_t(fy + k) * in_w * C, C, tx.bounds[2 * x], tx.bounds[2 * x + 1],
                                    tx.weights + std::size_t(x) * tx.taps, false, false, h);
#pragma unroll
    for (int c = 0; c < C; ++c) vertical[c] += ty.weights[std::size_t(y) * ty.taps + k] * std::int32_t(h[c]);
  }
#pragma unroll
  for (int c = 0; c < C; ++c) out[c] = resample_round<std::uint8_t>(vertical[c]);
}

template <int C, int N>
__global__ void __launch_bounds__(kThreads)
    steady_kernel(const std::uint8_t* __restrict__ src, std::uint8_t* __restrict__ dst, SteadyLaunch l,
                  SteadyWeights<N> wx, SteadyWeights<N> wy, ResampleTable tx, ResampleTable ty) {
  if (static_cast<int>(blockIdx.y) < l.frame_rows) {
    const long long stride = 1LL * l.frame_rows * gridDim.x * kThreads;
    for (long long p = (1LL * blockIdx.y * gridDim.x + blockIdx.x) * kThreads + threadIdx.x; p < l.frame; p += stride) {
      int x, y;
      frame_pixel(l, p, x, y);
      table_pixel<C>(src, l.in_w, tx, ty, x, y, dst + (std::size_t(y) * l.out_w + x) * C);
    }
    return;
  }
  const int xs = l.r.x0 + kSteadyStrip * (blockIdx.x * kThreads + threadIdx.x);
  if (xs >= l.r.x1) return;
  const int y0 = l.r.y0 + (blockIdx.y - l.frame_rows) * l.band, y1 = min(y0 + l.band, l.r.y1);
  using Row = StripRow<C, N>;
  constexpr int S = kSteadyStrip * C;
  const std::size_t pitch = std::size_t(l.in_w) * C;  // a multiple of 4
  const std::size_t first = std::size_t(2 * xs + l.offset_x) * C;
  const unsigned shift = 8 * (first % 4);
  const int needed = static_cast<int>((first + Row::kBytes - 1) / 4 - first / 4 + 1);
  const auto* words = reinterpret_cast<const std::uint32_t*>(src) + first / 4;
  const auto row_words = [&](int r) { return words + std::size_t(r) * (pitch / 4); };

  // h[k]: the horizontal sums of input row 2 y + offset_y + k, the rows
  // output row y reads; each row down, the window moves two rows.
  std::uint32_t h[N][C];
  const int r0 = 2 * y0 + l.offset_y;
#pragma unroll
  for (int k = 0; k < N - 2; ++k) {
    Row row;
    row.load(row_words(r0 + k), needed);
    row.sums(shift, wx, h[k]);
  }
  Row next[2];
  next[0].load(row_words(r0 + N - 2), needed);
  next[1].load(row_words(r0 + N - 1), needed);
  for (int y = y0; y < y1; ++y) {
    next[0].sums(shift, wx, h[N - 2]);
    next[1].sums(shift, wx, h[N - 1]);
    if (y + 1 < y1) {  // the next output row's input rows in flight while this one is summed and stored
      const int r = 2 * (y + 1) + l.offset_y;
      next[0].load(row_words(r + N - 2), needed);
      next[1].load(row_words(r + N - 1), needed);
    }
    std::uint32_t out[C] = {};
#pragma unroll
    for (int i = 0; i < S; ++i) {
      std::int32_t sum = std::int32_t{1} << (kResampleBits - 1);
#pragma unroll
      for (int k = 0; k < N; ++k) sum += wy.w[k] * std::int32_t(byte_of(h[k], i));
      out[i / 4] |= std::uint32_t(resample_round<std::uint8_t>(sum)) << (8 * (i % 4));
    }
    auto* to = reinterpret_cast<std::uint32_t*>(dst + (std::size_t(y) * l.out_w + xs) * C);
#pragma unroll
    for (int w = 0; w < C; ++w) to[w] = out[w];
#pragma unroll
    for (int k = 0; k < N - 2; ++k)
#pragma unroll
      for (int w = 0; w < C; ++w) h[k][w] = h[k + 2][w];
  }
}

template <int N> SteadyWeights<N> steady_weights(const ResampleTable& host, int output) {
  SteadyWeights<N> w;
  for (int k = 0; k < N; ++k) w.w[k] = host.weights[std::size_t(output) * host.taps + k];
  return w;
}

template <int C, int N>
cudaError_t launch(const CudaStage& s, const ResampleTables& device, const ResampleTables& host, SteadyLaunch l) {
  const auto kernel = steady_kernel<C, N>;
  const int blocks_x = ((l.r.x1 - l.r.x0) / kSteadyStrip + kThreads - 1) / kThreads;
  // Enough blocks for the frame's outputs, one a thread, up to kFrameRows
  // rows of them; first, so that they run beside the rectangle's.
  const long long per_row = 1LL * blocks_x * kThreads;
  l.frame_rows = static_cast<int>(std::min<long long>((l.frame + per_row - 1) / per_row, kFrameRows));
  int slots = 0;
  if (cudaError_t e = resident_blocks(kernel, kThreads, 0, slots); e != cudaSuccess) return e;
  // Bands as long as makes one wave of blocks: at 7680x4320 RGB a band of
  // 8 rows made 2.05 waves, whose last few blocks ran alone (box 0.0569 ms,
  // 0.0540 in one wave; linear 0.0642 and 0.0666; 1920x1080 box 0.0155 and
  // 0.0114, linear 0.0171 and 0.0142); two waves were slower.
  // Longer where a taller image would pass the grid's rows.
  const int rows = l.r.y1 - l.r.y0, bands_a_wave = std::max(1, slots / blocks_x);
  l.band = std::max({2, (rows + bands_a_wave - 1) / bands_a_wave, (rows + kMaxGridY - kFrameRows - 1) / (kMaxGridY - kFrameRows)});
  const int bands = (rows + l.band - 1) / l.band;
  kernel<<<dim3(blocks_x, l.frame_rows + bands), kThreads, 0, s.stream>>>(
      static_cast<const std::uint8_t*>(s.src), static_cast<std::uint8_t*>(s.dst), l,
      steady_weights<N>(host.x, host.steady_x.first), steady_weights<N>(host.y, host.steady_y.first), device.x,
      device.y);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_resample_steady(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                   bool& ran) {
  ran = false;
  const int C = s.in.channels;
  const auto on_words = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 4 == 0; };
  if (s.in.bytes != 1 || !on_words(s.src) || !on_words(s.dst) ||
      !steady_halving_fits(host, C, s.in.width, s.out.width))
    return cudaSuccess;
  SteadyLaunch l{};
  l.in_w = s.in.width, l.out_w = s.out.width;
  l.r = steady_rect(host);
  l.offset_x = host.steady_x.offset, l.offset_y = host.steady_y.offset;
  l.frame = 1LL * l.out_w * s.out.height - 1LL * (l.r.x1 - l.r.x0) * (l.r.y1 - l.r.y0);
  ran = true;
  const int n = host.x.bounds[2 * host.steady_x.first + 1];
  if (C == 1) return n == 2 ? launch<1, 2>(s, device, host, l) : launch<1, 4>(s, device, host, l);
  return n == 2 ? launch<3, 2>(s, device, host, l) : launch<3, 4>(s, device, host, l);
}

}  // namespace gpuimg
