// Box blur in one pass on 8-bit images whose rows are whole 32-bit words,
// for radii past Blur::kMaxFusedRadius up to Blur::kMaxStripRadius.
//
// A block owns a strip of kStripSamples samples of each row and walks down
// a band of rows. Each thread owns nine consecutive words of the strip, 36
// samples: a whole number of pixels at every channel count, so that its
// sample k always has channel k mod C. It keeps their vertical window sums
// in registers (see Columns) and updates them from the entering and leaving
// rows, which it loads straight into registers at the start of the row
// before. Each row, the block turns its column sums into per-channel prefix
// sums (within the thread, across the warp by shuffles, across the warps
// through shared memory) and stores them, and each output is the difference
// of two: lane L of a warp computes samples L, L + 32, ... of the warp's
// share, so that its loads read consecutive words. Two buffers of prefix
// sums leave two barriers a row. A strip outputs all but about R pixels at
// either end, so neighbouring strips overlap by 2R.
//
// A band's first window takes 2R + 1 rows, most of which other bands read
// too: from kMinChunkedRadius[C] a pass before sums the image's chunks of
// kChunkRows rows into the stage's scratch, and a band starts from those.
//
// box_blur_wide.cu stages every row through shared memory and reads its
// prefix sums a pixel at a time; it keeps the rows that are not whole
// words. On the H100 at 7680x4320 RGB this takes 0.140, 0.162, 0.183 and
// 0.197 ms at R = 9, 25, 64 and 128, where that kernel (at 7679x4320) took
// 0.301, 0.338, 0.416 and 0.617, and 0.270 at R = 256, where two passes
// took 0.757.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <type_traits>

#include "box_blur_paths.hpp"
#include "byte_lanes.hpp"
#include "mean_divider.hpp"
#include "warp_scan.cuh"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
// Odd, so that the 16-byte stores of a quarter warp's threads, nine vectors
// apart, fall on distinct banks.
constexpr int kLaneWords = 9;
constexpr int kLaneSamples = 4 * kLaneWords;
static_assert(kLaneSamples % 3 == 0 && kLaneSamples % 4 == 0, "a thread's samples are whole pixels");
constexpr int kStripSamples = kThreads * kLaneSamples;
static_assert(kStripSamples == kStripBlurSamples, "box_blur_paths.hpp says so");
// Words of zeros before each buffer's first prefix sum: the empty sums
// before the strip's first pixel, one a channel.
constexpr int kLead = 4;
constexpr int kBufferWords = kLead + kStripSamples;
static_assert(kBufferWords % 4 == 0, "each buffer's sums start on a 16-byte boundary");
constexpr int kTotalsWords = kWarps * 4;  // [warp][channel]
constexpr int kSmemBytes = 4 * 2 * (kBufferWords + kTotalsWords);
// Rows in flight while a band's first window is summed (half as many chunk
// sums, twice a row's size): one at a time would wait out a memory latency
// for each of up to 257 rows. Eight rows and four chunk sums spill
// registers; eight rows where there are no chunk sums gained 1% at
// 7680x4320 RGB, R = 9 (0.1387 against 0.1403 ms).
constexpr int kStartAhead = 4;
// From radius kMinChunkedRadius[C] a band's first window comes mostly from
// sums of chunks of kChunkRows rows (at most 16 * 255 a sample: 16 bits),
// and bands need not be long. At 7680x4320 RGB, chunk sums took the time at
// R = 25, 48, 64 and 128 from 0.176, 0.211, 0.238 and 0.325 ms to 0.191,
// 0.195, 0.201 and 0.213 (gray: 0.073, 0.101, 0.127, 0.175 to 0.074, 0.075,
// 0.077, 0.090). The first radius where they gain: 32 for gray (0.0711
// against 0.0771 ms at 34), 38 for RGB (0.1814 against 0.1837) and 48 for
// RGBA (0.2404 against 0.2318 at 42); two channels, unmeasured, between.
constexpr int kChunkRows = 16;
constexpr int kMinChunkedRadius[5] = {0, 32, 36, 38, 48};

struct StripGeometry {
  int width, height, radius;
  int row_words;
  int align_px;  // a strip's first staged pixel is a multiple of it: a word boundary
  int out_px;    // output pixels per strip, all strips but maybe the last
  int band_len;
  const uint2* chunk_sums;  // see chunk_sums_kernel
};

template <int C> constexpr int kStripPx = kStripSamples / C;

// The vertical window sums of a thread's kLaneSamples columns. Up to
// R = 128, (2R + 1) * 255 < 2^16, and they go two to a word in 16-bit
// lanes: sample 4k and 4k + 2 in pair[2k], 4k + 1 and 4k + 3 in
// pair[2k + 1], so that a loaded word adds in with two permutes and two
// adds (slide_lanes). Past R = 128 they take a word each.
template <bool Wide> struct Columns {
  std::uint32_t pair[2 * kLaneWords] = {};

  __device__ __forceinline__ void slide(const std::uint32_t (&in)[kLaneWords], const std::uint32_t (&out)[kLaneWords]) {
#pragma unroll
    for (int k = 0; k < kLaneWords; ++k) slide_lanes(pair[2 * k], pair[2 * k + 1], in[k], out[k]);
  }
  // Adds chunk sums, paired the same way.
  __device__ __forceinline__ void add(const uint2 (&c)[kLaneWords]) {
#pragma unroll
    for (int k = 0; k < kLaneWords; ++k) {
      pair[2 * k] += c[k].x;
      pair[2 * k + 1] += c[k].y;
    }
  }
  __device__ __forceinline__ std::uint32_t operator[](int i) const {
    const std::uint32_t p = pair[i / 4 * 2 + i % 2];
    return i % 4 < 2 ? p & 0xffffu : p >> 16;
  }
};

template <> struct Columns<true> {
  std::uint32_t sum[kLaneSamples] = {};

  __device__ __forceinline__ void slide(const std::uint32_t (&in)[kLaneWords], const std::uint32_t (&out)[kLaneWords]) {
#pragma unroll
    for (int i = 0; i < kLaneSamples; ++i)
      sum[i] += __byte_perm(in[i / 4], 0, 0x4440 + i % 4) - __byte_perm(out[i / 4], 0, 0x4440 + i % 4);
  }
  __device__ __forceinline__ void add(const uint2 (&c)[kLaneWords]) {
#pragma unroll
    for (int k = 0; k < kLaneWords; ++k) {
      sum[4 * k] += c[k].x & 0xffffu;
      sum[4 * k + 1] += c[k].y & 0xffffu;
      sum[4 * k + 2] += c[k].x >> 16;
      sum[4 * k + 3] += c[k].y >> 16;
    }
  }
  __device__ __forceinline__ std::uint32_t operator[](int i) const { return sum[i]; }
};

struct Words {
  std::uint32_t w[kLaneWords];
};
struct Pairs {
  uint2 p[kLaneWords];
};

// Calls fetch(i, slot) for i in [0, n) and use(slot) for each in turn, with
// the fetches of the next Depth in flight.
template <class Slot, int Depth, class Fetch, class Use>
__device__ __forceinline__ void stream(int n, Fetch fetch, Use use) {
  Slot ahead[Depth];
#pragma unroll
  for (int k = 0; k < Depth; ++k)
    if (k < n) fetch(k, ahead[k]);
  for (int i = 0; i < n; i += Depth)
#pragma unroll
    for (int k = 0; k < Depth; ++k) {
      if (i + k >= n) break;
      use(ahead[k]);
      if (i + k + Depth < n) fetch(i + k + Depth, ahead[k]);
    }
}

// The column sums of each chunk of kChunkRows rows (the last may be
// shorter), for word w of the row at chunk_sums[chunk * row_words + w], its
// samples paired as in Columns<false>. One thread a word of a chunk: the
// image is read once, and the sums take an eighth of its bytes.
__global__ void chunk_sums_kernel(const std::uint32_t* __restrict__ src, uint2* __restrict__ sums, int row_words,
                                  int height, int chunks) {
  const long long total = 1LL * row_words * chunks;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < total; i += 1LL * gridDim.x * blockDim.x) {
    const int w = static_cast<int>(i % row_words), chunk = static_cast<int>(i / row_words);
    const int rows = min(kChunkRows, height - chunk * kChunkRows);
    const std::uint32_t* at = src + static_cast<std::size_t>(chunk) * kChunkRows * row_words + w;
    std::uint32_t even = 0, odd = 0;
#pragma unroll
    for (int y = 0; y < kChunkRows; ++y) {
      const std::uint32_t x = y < rows ? at[static_cast<std::size_t>(y) * row_words] : 0u;
      slide_lanes(even, odd, x, 0);
    }
    sums[i] = make_uint2(even, odd);
  }
}

// Chunked: whether the bands start from g.chunk_sums; Wide: whether the
// column sums take a word each. Kernels of their own, so that each needs
// registers only for its own.
template <int C, bool Chunked, bool Wide>
__global__ void __launch_bounds__(kThreads, 2)
    strip_blur_kernel(const std::uint32_t* __restrict__ src, std::uint8_t* __restrict__ dst, StripGeometry g,
                      MeanDivider mean) {
  extern __shared__ __align__(16) std::uint32_t smem[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x < kLead) smem[threadIdx.x] = smem[kBufferWords + threadIdx.x] = 0;

  const int R = g.radius, RC = R * C;
  const int out_lo = blockIdx.x * g.out_px, out_hi = min(out_lo + g.out_px, g.width);
  const int left = max(out_lo - R, 0) / g.align_px * g.align_px;  // the first pixel staged
  const int end = min(g.width - left, kStripPx<C>) * C;        // samples staged
  // This thread's words of each row: `words` of them from word `w0`.
  const int w0 = left * C / 4 + threadIdx.x * kLaneWords;
  const int words = min(max(left * C / 4 + end / 4 - w0, 0), kLaneWords);
  const std::uint32_t* own = src + w0;
  const auto load = [&](int y, std::uint32_t(&w)[kLaneWords]) {
    const std::uint32_t* row = own + static_cast<std::size_t>(clamp_index(y, g.height)) * g.row_words;
    if (words == kLaneWords) {  // all but the threads at the image's right edge
#pragma unroll
      for (int k = 0; k < kLaneWords; ++k) w[k] = row[k];
    } else {
#pragma unroll
      for (int k = 0; k < kLaneWords; ++k) w[k] = k < words ? row[k] : 0u;
    }
  };

  // The vertical sums of row y0's window, rows y0 - R .. y0 + R: where
  // there are chunk sums, those of the chunks inside the image and the
  // window, and the rows around them one by one.
  const int y0 = blockIdx.y * g.band_len, y1 = min(y0 + g.band_len, g.height);
  Columns<Wide> col;
  const auto add_rows = [&](int lo, int hi) {
    stream<Words, kStartAhead>(hi - lo + 1, [&](int i, Words& r) { load(lo + i, r.w); },
                  [&](const Words& r) {
                    const std::uint32_t none[kLaneWords] = {};
                    col.slide(r.w, none);
                  });
  };
  const int lo = y0 - R, hi = y0 + R;
  const int k0 = (max(lo, 0) + kChunkRows - 1) / kChunkRows, k1 = (min(hi, g.height - 1) + 1) / kChunkRows;
  if (Chunked && k0 < k1) {
    add_rows(lo, k0 * kChunkRows - 1);
    const uint2* sums = g.chunk_sums + w0;
    stream<Pairs, kStartAhead / 2>(k1 - k0, [&](int i, Pairs& c) {
      const uint2* chunk = sums + static_cast<std::size_t>(k0 + i) * g.row_words;
#pragma unroll
      for (int k = 0; k < kLaneWords; ++k) c.p[k] = k < words ? chunk[k] : make_uint2(0, 0);
    }, [&](const Pairs& c) { col.add(c.p); });
    add_rows(k1 * kChunkRows, hi);
  } else {
    add_rows(lo, hi);
  }

  // The strip's output samples, shared among the warps in whole rounds of
  // 32 (lane L takes sample L of each round).
  const int o0 = (out_lo - left) * C, o1 = (out_hi - left) * C;
  const int share = ((o1 - o0 + kWarps - 1) / kWarps + 31) / 32 * 32;
  const int s0 = min(o0 + warp * share, o1), s1 = min(s0 + share, o1);
  // Rounds from a to b are whole, and their windows lie inside the image;
  // the others clamp theirs at the image's edges.
  const auto round_at = [&](int i) { return s0 + (i - s0 + 31) / 32 * 32; };  // the first at or after i
  const int a = min(round_at(max((R - left) * C, s0)), s1);
  const int b = max(a, round_at(min((g.width - R - left) * C, s1) - 31));

  for (int y = y0; y < y1; ++y) {
    const int parity = (y - y0) & 1;
    std::uint32_t* prefix = smem + parity * kBufferWords + kLead;  // prefix[i] sums samples i, i - C, ... of the strip
    std::uint32_t* totals = smem + 2 * kBufferWords + parity * kTotalsWords;

    // The rows that move the window on, loading while this row is output.
    std::uint32_t entering[kLaneWords], leaving[kLaneWords];
    if (y + 1 < y1) {
      load(y + R + 1, entering);
      load(y - R, leaving);
    }

    // Within this thread: sample k's column sum, then its prefix.
    std::uint32_t p[kLaneSamples];
#pragma unroll
    for (int k = 0; k < kLaneSamples; ++k) {
      p[k] = k < C ? col[k] : p[k - C] + col[k];
    }
    // Across the warp, then the warps before this one.
    std::uint32_t carry[C];
#pragma unroll
    for (int c = 0; c < C; ++c) carry[c] = p[kLaneSamples - C + c];
    warp_exclusive_scan<C>(carry);
    if (lane == 31)
#pragma unroll
      for (int c = 0; c < C; ++c) totals[warp * 4 + c] = carry[c] + p[kLaneSamples - C + c];
    __syncthreads();
#pragma unroll
    for (int c = 0; c < C; ++c) carry[c] += warp_sum(lane < warp ? totals[lane * 4 + c] : 0u);
    auto* mine = reinterpret_cast<uint4*>(prefix + threadIdx.x * kLaneSamples);
#pragma unroll
    for (int k = 0; k < kLaneWords; ++k)
      mine[k] = make_uint4(p[4 * k] + carry[(4 * k) % C], p[4 * k + 1] + carry[(4 * k + 1) % C],
                           p[4 * k + 2] + carry[(4 * k + 2) % C], p[4 * k + 3] + carry[(4 * k + 3) % C]);
    __syncthreads();

    std::uint8_t* out = dst + static_cast<std::size_t>(y) * g.row_words * 4 + left * C;
    const auto outputs = [&](auto no_shift) {
      const auto divide = [&](std::uint32_t h) {
        return static_cast<std::uint8_t>(decltype(no_shift)::value ? mean.unshifted(h) : mean(h));
      };
      // Pixels past the image's edge repeat the edge pixel: the window's
      // sum runs to the staged end, and the edge column's sum stands in for
      // each missing one.
      const auto clamped = [&](int i) {
        const int c = i % C, x = left + i / C;
        const int before = max(R - x, 0), after = max(x + R - (g.width - 1), 0);
        const std::uint32_t last = prefix[end - C + c];
        out[i] = divide(prefix[min(i + RC, end - C + c)] - prefix[max(i - RC - C, c - C)] + before * prefix[c] +
                        after * (last - prefix[end - 2 * C + c]));
      };
      for (int i = s0 + lane; i < a; i += 32) clamped(i);
      const std::uint32_t* hi_at = prefix + a + lane + RC;
      const std::uint32_t* lo_at = prefix + a + lane - RC - C;
      std::uint8_t* to = out + a + lane;
#pragma unroll 4
      for (int n = (b - a) / 32; n > 0; --n, hi_at += 32, lo_at += 32, to += 32) *to = divide(*hi_at - *lo_at);
      for (int i = b + lane; i < s1; i += 32) clamped(i);
    };
    if (mean.shift == 0)
      outputs(std::true_type{});
    else
      outputs(std::false_type{});

    if (y + 1 < y1) col.slide(entering, leaving);
  }
}

template <int C, bool Chunked, bool Wide> cudaError_t launch(const CudaStage& s, int radius, MeanDivider mean) {
  // Refused before any CUDA call, which on a machine without a GPU would fail first.
  if (Chunked && s.scratch == nullptr) return cudaErrorInvalidValue;
  const auto kernel = strip_blur_kernel<C, Chunked, Wide>;
  StripGeometry g{s.in.width, s.in.height, radius, s.in.width * C / 4, 4 / std::gcd(C, 4), 0, 0, nullptr};
  // Strips output a multiple of align_px pixels each, so that every strip
  // but the first stages from the same offset before its outputs' windows:
  // the windows' R pixels, rounded down to a word. A strip then needs
  // out_px + 2R + that rounding pixels at most, and no more strips are
  // launched than that allows (at 7680 RGB pixels and R = 256, three where
  // assuming the worst rounding took four).
  const int rounding = (g.align_px - radius % g.align_px) % g.align_px;
  const int most_out = (kStripPx<C> - 2 * radius - rounding) / g.align_px * g.align_px;
  const int fewest = (s.in.width + most_out - 1) / most_out;
  g.out_px = ((s.in.width + fewest - 1) / fewest + g.align_px - 1) / g.align_px * g.align_px;
  const int strips = (s.in.width + g.out_px - 1) / g.out_px;  // the rounding up may leave one empty
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
      e != cudaSuccess)
    return e;
  int slots = 0;
  if (cudaError_t e = resident_blocks(kernel, kThreads, kSmemBytes, slots); e != cudaSuccess) return e;
  if (Chunked) {
    g.chunk_sums = static_cast<const uint2*>(s.scratch);
    const int chunks = (s.in.height + kChunkRows - 1) / kChunkRows;
    const long long threads = 1LL * g.row_words * chunks;
    chunk_sums_kernel<<<static_cast<int>(std::min<long long>((threads + 255) / 256, slots * 8LL)), 256, 0,
                        s.stream>>>(static_cast<const std::uint32_t*>(s.src), static_cast<uint2*>(s.scratch),
                                    g.row_words, s.in.height, chunks);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
  }
  // One wave of blocks, each a band of rows. Without chunk sums a band is
  // at least a quarter of the window long (see box_blur_wide.cu).
  g.band_len = one_wave_band_len(s.in.height, slots / strips, Chunked ? 0 : (2 * radius + 1) / 4);
  const dim3 grid(strips, (s.in.height + g.band_len - 1) / g.band_len);
  kernel<<<grid, kThreads, kSmemBytes, s.stream>>>(static_cast<const std::uint32_t*>(s.src),
                                                  static_cast<std::uint8_t*>(s.dst), g, mean);
  return cudaGetLastError();
}

}  // namespace

bool fits_strip_blur(const CudaStage& s, int radius) {
  return s.in.bytes == 1 && radius > Blur::kMaxFusedRadius && radius <= Blur::kMaxStripRadius &&
         1LL * s.in.width * s.in.channels % 4 == 0 && 1LL * s.in.width * s.in.channels < (1LL << 31) && s.in.channels >= 1 &&
         s.in.channels <= 4;
}

cudaError_t launch_strip_blur(const CudaStage& s, int radius) {
  const auto mean = MeanDivider::for_mean(Blur::window_samples(radius), 255);
  if (!fits_strip_blur(s, radius) || !mean) return cudaErrorInvalidValue;
  return with_channels(s, [&](auto c) {
    constexpr int C = decltype(c)::value;
    if (!Blur::row_sums_fit_16_bits(radius, 255)) return launch<C, true, true>(s, radius, *mean);
    if (radius >= kMinChunkedRadius[C]) return launch<C, true, false>(s, radius, *mean);
    return launch<C, false, false>(s, radius, *mean);
  });
}

}  // namespace gpuimg
