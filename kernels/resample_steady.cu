// --resize to exactly half of each side by a filter whose runs are two or
// four inputs there (box, linear), on 8-bit images without alpha: no tile
// in shared memory. Away from the edges such a resize is steady: output i
// reads inputs 2 i + offset onwards with the same weights (ResampleSteady,
// planned on the host), so a thread can keep them in registers and make a
// strip of four output pixels down a band of rows, reading each input row
// of the strip once as 8-byte vectors straight from global memory, its
// horizontal sums for the last rows the vertical pass reads kept in
// registers. The outputs around the steady rectangle (an edge row or column
// or two, and the columns left over from whole strips) are made one by one
// from the tables, by the launch's first rows of blocks.
//
// Halving 7680x4320 RGB on the H100 in the tiles (resample_tiles.cu) took
// 0.102 ms by linear and 0.091 by box, where the memory's limit is near
// 0.045 and NPP's linear, which reads two taps, 0.058: the tiles spend 70%
// of the issue slots staging, summing and storing. Here: linear 0.0578
// (NPP 0.0592 in the same run), box 0.0508.
#include <algorithm>
#include <cstdint>

#include "byte_lanes.hpp"
#include "resample_paths.hpp"

namespace gpuimg {
namespace {

constexpr int kThreads = 128;  // threads a block, along the rows
constexpr int kFrameRows = 64;  // the most rows of blocks for the frame

// Sums run two samples a word, in 16-bit lanes (steady_lane_weights): a
// pair word holds the samples of the strip's outputs j (low lane) and
// j + 2 (high lane), one channel. Four output pixels of RGB are six pair
// words. Sample by sample (a multiply-add a byte taken out of its word),
// linear halving of 7680x4320 RGB took 0.066 ms on the H100; box, which
// the memory holds back, took as long either way.
template <int N> struct SteadyWeights {
  std::uint32_t w[N];  // the weights >> kSteadyLaneShift
};

// Both lanes' samples of N pair words tap(0) .. tap(N - 1), weighted:
// (2^7 + sum w v) >> 8 in each lane.
template <int N, class Tap>
__device__ __forceinline__ std::uint32_t lane_samples(const SteadyWeights<N>& w, Tap tap) {
  std::uint32_t sum = 0x00800080u;
#pragma unroll
  for (int k = 0; k < N; ++k) sum += w.w[k] * tap(k);
  return even_bytes(sum >> 8);
}

// The strip's inputs of one row, as 8-byte vectors from the one holding
// its first byte. A strip's first output pixel is a multiple of four, so
// its first input, pixel 2 xs + offset (steady_offset), starts kSkip bytes
// into a vector, the same for every strip.
template <int C, int N> struct StripRow {
  static constexpr int kSkip = steady_offset(N) == 0 ? 0 : 8 - C;
  static constexpr int kBytes = C * (2 * (kSteadyStrip - 1) + N);
  static constexpr int kVectors = (kSkip + kBytes + 7) / 8;
  std::uint32_t u[2 * kVectors];

  __device__ __forceinline__ void load(const uint2* from) {
#pragma unroll
    for (int v = 0; v < kVectors; ++v) {
      const uint2 q = __ldg(from + v);
      u[2 * v] = q.x, u[2 * v + 1] = q.y;
    }
  }

  // The horizontal pass's outputs as pair words, h[2 c + e] holding
  // channel c of the strip's pixels e and e + 2. Their inputs are pixels
  // 2 e + k and 2 e + k + 4 for tap k: pixel pair p of channel c is bytes
  // C p + c and C p + c + 4 C of the strip's inputs, the same byte of words
  // C apart, so one byte permute and a mask make it.
  __device__ __forceinline__ void sums(const SteadyWeights<N>& w, std::uint32_t (&h)[2 * C]) const {
#pragma unroll
    for (int c = 0; c < C; ++c) {
      std::uint32_t pair[N + 2];
#pragma unroll
      for (int p = 0; p < N + 2; ++p) {
        const int byte = kSkip + C * p + c, b = byte % 4;  // bytes 1 and 3 of the permute are masked off
        pair[p] = even_bytes(__byte_perm(u[byte / 4], u[byte / 4 + C], b | (4 + b) << 8));
      }
#pragma unroll
      for (int e = 0; e < 2; ++e) h[2 * c + e] = lane_samples(w, [&](int k) { return pair[2 * e + k]; });
    }
  }
};

// The strip's output pixels, C words, from their samples as pair words.
template <int C> __device__ __forceinline__ void pack_strip(const std::uint32_t (&o)[2 * C], std::uint32_t (&out)[C]) {
  if constexpr (C == 1) {
    out[0] = join_bytes(o[0], o[1]);  // pixels 0, 1, 2, 3
  } else {
    static_assert(C == 3);
    const std::uint32_t x0 = join_bytes(o[0], o[2]);  // pixel 0 R G, pixel 2 R G
    const std::uint32_t x1 = join_bytes(o[4], o[1]);  // 0 B, 1 R, 2 B, 3 R
    const std::uint32_t x2 = join_bytes(o[3], o[5]);  // 1 G B, 3 G B
    out[0] = __byte_perm(x0, x1, 0x5410);
    out[1] = __byte_perm(x2, x0, 0x7610);
    out[2] = __byte_perm(x1, x2, 0x7632);
  }
}

// What a launch makes: the steady rectangle of whole strips (steady_rect),
// in bands; and the frame, every other output.
struct SteadyLaunch {
  int in_w, out_w;
  SteadyRect r;
  int offset_y;
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
  // Rows of whole vectors: the last vector holding a strip's input ends
  // within its row.
  const std::size_t pitch = std::size_t(l.in_w) * C / 8;
  const auto* vectors =
      reinterpret_cast<const uint2*>(src) + (std::size_t(2 * xs + steady_offset(N)) * C - Row::kSkip) / 8;
  const auto row_vectors = [&](int r) { return vectors + std::size_t(r) * pitch; };

  // h[k]: the horizontal sums of input row 2 y + offset_y + k, the rows
  // output row y reads; each row down, the window moves two rows.
  std::uint32_t h[N][2 * C];
  const int r0 = 2 * y0 + l.offset_y;
#pragma unroll
  for (int k = 0; k < N - 2; ++k) {
    Row row;
    row.load(row_vectors(r0 + k));
    row.sums(wx, h[k]);
  }
  Row next[2];
  next[0].load(row_vectors(r0 + N - 2));
  next[1].load(row_vectors(r0 + N - 1));
  for (int y = y0; y < y1; ++y) {
    next[0].sums(wx, h[N - 2]);
    next[1].sums(wx, h[N - 1]);
    if (y + 1 < y1) {  // the next output row's input rows in flight while this one is summed and stored
      const int r = 2 * (y + 1) + l.offset_y;
      next[0].load(row_vectors(r + N - 2));
      next[1].load(row_vectors(r + N - 1));
    }
    std::uint32_t o[2 * C], out[C];
#pragma unroll
    for (int i = 0; i < 2 * C; ++i) o[i] = lane_samples(wy, [&](int k) { return h[k][i]; });
    pack_strip<C>(o, out);
    auto* to = reinterpret_cast<std::uint32_t*>(dst + (std::size_t(y) * l.out_w + xs) * C);
#pragma unroll
    for (int w = 0; w < C; ++w) to[w] = out[w];
#pragma unroll
    for (int k = 0; k < N - 2; ++k)
#pragma unroll
      for (int i = 0; i < 2 * C; ++i) h[k][i] = h[k + 2][i];
  }
}

template <int N> SteadyWeights<N> steady_weights(const ResampleTable& host, int output) {
  SteadyWeights<N> w;
  for (int k = 0; k < N; ++k)
    w.w[k] = static_cast<std::uint32_t>(host.weights[std::size_t(output) * host.taps + k] >> kSteadyLaneShift);
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
  if (s.in.bytes != 1 || !aligned_to(s.src, 8) || !aligned_to(s.dst, 4) ||
      !steady_halving_fits(host, C, s.in.width, s.out.width))
    return cudaSuccess;
  SteadyLaunch l{};
  l.in_w = s.in.width, l.out_w = s.out.width;
  l.r = steady_rect(host);
  l.offset_y = host.steady_y.offset;
  l.frame = 1LL * l.out_w * s.out.height - 1LL * (l.r.x1 - l.r.x0) * (l.r.y1 - l.r.y0);
  ran = true;
  const int n = host.x.bounds[2 * host.steady_x.first + 1];
  if (C == 1) return n == 2 ? launch<1, 2>(s, device, host, l) : launch<1, 4>(s, device, host, l);
  return n == 2 ? launch<3, 2>(s, device, host, l) : launch<3, 4>(s, device, host, l);
}

}  // namespace gpuimg
