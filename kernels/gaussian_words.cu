// --gaussian's one pass for 8-bit images whose rows are whole 32-bit words
// and whose pixels are at most a word (D bytes), radii up to
// kMaxGaussianWordsRadius, no tables around the stage.
//
// Each thread owns one word column (four samples) and walks down a band of
// rows, as the word rows skeleton does (word_rows.cuh), but with a halo of
// R pixels: the words up to H = ceil(R D / 4) to either side come from the
// next lanes by shuffles, and at a warp's ends from one more word each
// lane there loads. Words past the row's ends are made of its edge pixel's
// bytes, so the sums need no edge cases. Each row's one-axis sums along x
// (Lines, GaussianSums<uint8_t>) are made once, from pairs of samples
// folded about the centre added two to a word (byte_lanes.hpp), and kept
// in registers for the 2R + 1 output rows that need them; an output then
// folds its column of Lines the same way into one exact 64-bit sum.
#include <cstdint>

#include "byte_lanes.hpp"
#include "gaussian_paths.hpp"
#include "word_rows.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 4;   // side by side: a block spans 128 words of a row
constexpr int kBatch = 4;   // output rows a step: the ring of Lines moves once a step
constexpr int kWaves = 2;   // bands enough for two blocks in every slot (word_rows.cuh)

struct Weights {
  std::uint32_t w[kMaxGaussianWordsRadius + 1];
};

// Word offsets fit an int: word_rows::fits keeps images below 2^31 words.
template <int D, int R>
__global__ void __launch_bounds__(32 * kWarps)
    gaussian_words_kernel(const std::uint32_t* __restrict__ src, std::uint32_t* __restrict__ dst, int words,
                          int height, int band, Weights weights) {
  constexpr int H = (R * D + 3) / 4;  // halo words a side
  constexpr int kRing = 2 * R + kBatch;
  const int lane = threadIdx.x % 32;
  const int first = (blockIdx.x * kWarps + threadIdx.x / 32) * 32;  // the warp's first word
  if (first >= words) return;                                      // the whole warp
  const int k = first + lane;
  // The halo words: lanes 0 .. H - 1 the H before the warp's, lanes
  // 32 - H .. 31 the H after it.
  const int halo = lane < H ? first - H + lane : (lane >= 32 - H ? first + lane + H : k);
  // A word past the row's ends takes its bytes from the edge pixel: byte j
  // of word i is byte (4i + j) mod D of that pixel, the first word's bytes
  // 0 .. D - 1 or the last's 4 - D .. 3.
  const auto source = [&](int i, unsigned& selector) {
    if (i >= 0 && i < words) {
      selector = 0x3210;
      return i;
    }
    selector = 0;
    for (int j = 0; j < 4; ++j) {
      const int m = ((4 * i + j) % D + D) % D;
      selector |= static_cast<unsigned>(i < 0 ? m : 4 - D + m) << (4 * j);
    }
    return i < 0 ? 0 : words - 1;
  };
  unsigned own_selector, halo_selector;
  const int own = source(k, own_selector), beside = source(halo, halo_selector);
  const int y0 = blockIdx.y * band, y1 = min(y0 + band, height);

  struct Loaded {
    std::uint32_t own, halo;
  };
  const auto load = [&](int y) {
    const std::uint32_t* row = src + clamp_index(y, height) * words;
    return Loaded{__byte_perm(row[own], 0, own_selector), __byte_perm(row[beside], 0, halo_selector)};
  };
  // The four Lines of a row.
  const auto lines = [&](const Loaded& in, std::uint32_t (&out)[4]) {
    std::uint32_t w[2 * H + 1];  // w[H + d]: the word d to the right
#pragma unroll
    for (int d = -H; d <= H; ++d) {
      const int from = lane + d;
      const std::uint32_t inner = __shfl_sync(0xffffffffu, in.own, from & 31);
      const std::uint32_t outer = __shfl_sync(0xffffffffu, in.halo, from < 0 ? from + H : from - H);
      w[H + d] = from >= 0 && from < 32 ? inner : outer;
    }
    // The four bytes from byte offset o (from the thread's first byte).
    const auto at = [&](int o) {
      const int i = H + (o >= 0 ? o / 4 : -((3 - o) / 4)), shift = ((o % 4) + 4) % 4;
      return shift == 0 ? w[i] : __funnelshift_r(w[i], w[i + 1], 8 * shift);
    };
    const std::uint32_t centre = w[H];
    out[0] = weights.w[0] * (centre & 0xffu);
    out[1] = weights.w[0] * ((centre >> 8) & 0xffu);
    out[2] = weights.w[0] * ((centre >> 16) & 0xffu);
    out[3] = weights.w[0] * (centre >> 24);
#pragma unroll
    for (int i = 1; i <= R; ++i) {
      const std::uint32_t west = at(-i * D), east = at(i * D);
      const std::uint32_t even = even_bytes(west) + even_bytes(east), odd = odd_bytes(west) + odd_bytes(east);
      out[0] += weights.w[i] * (even & 0xffffu);
      out[1] += weights.w[i] * (odd & 0xffffu);
      out[2] += weights.w[i] * (even >> 16);
      out[3] += weights.w[i] * (odd >> 16);
    }
  };

  std::uint32_t ring[kRing][4];  // ring[i]: the Lines of row y - R + i
#pragma unroll
  for (int i = 0; i < 2 * R; ++i) lines(load(y0 - R + i), ring[i]);
  Loaded next[kBatch];
#pragma unroll
  for (int i = 0; i < kBatch; ++i) next[i] = load(y0 + R + i);
  for (int y = y0; y < y1; y += kBatch) {
    Loaded now[kBatch];
#pragma unroll
    for (int i = 0; i < kBatch; ++i) {
      now[i] = next[i];
      if (y + kBatch < y1) next[i] = load(y + kBatch + R + i);
    }
#pragma unroll
    for (int i = 0; i < kBatch; ++i) lines(now[i], ring[2 * R + i]);
#pragma unroll
    for (int i = 0; i < kBatch; ++i) {
      if (y + i >= y1) break;
      std::uint32_t out = 0;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        std::uint64_t s = std::uint64_t(weights.w[0]) * ring[i + R][j];
#pragma unroll
        for (int d = 1; d <= R; ++d) s += std::uint64_t(weights.w[d]) * (ring[i + R - d][j] + ring[i + R + d][j]);
        GaussianSums<std::uint8_t> sums;
        sums.s = s;
        out |= static_cast<std::uint32_t>(sums.rounded()) << (8 * j);
      }
      if (k < words) dst[(y + i) * words + k] = out;
    }
#pragma unroll
    for (int i = 0; i < 2 * R; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j) ring[i][j] = ring[i + kBatch][j];
  }
}

template <int D, int R> cudaError_t launch(const CudaStage& s, const Weights& weights) {
  const auto kernel = gaussian_words_kernel<D, R>;
  int slots = 0;
  if (cudaError_t e = resident_blocks(kernel, 32 * kWarps, 0, slots); e != cudaSuccess) return e;
  const int words = static_cast<int>(1LL * s.in.width * D / 4);
  const int across = (words + 32 * kWarps - 1) / (32 * kWarps);
  const int bands = std::max(1, kWaves * slots / across);
  const int band = std::max({(s.in.height + bands - 1) / bands, kBatch, (s.in.height + kMaxGridY - 1) / kMaxGridY});
  const dim3 grid(across, (s.in.height + band - 1) / band);
  kernel<<<grid, 32 * kWarps, 0, s.stream>>>(static_cast<const std::uint32_t*>(s.src),
                                             static_cast<std::uint32_t*>(s.dst), words, s.in.height, band, weights);
  return cudaGetLastError();
}

template <int D, int... R>
cudaError_t launch(const CudaStage& s, int r, const Weights& weights, std::integer_sequence<int, R...>) {
  cudaError_t result = cudaErrorInvalidValue;
  ((r == R + 1 ? (result = launch<D, R + 1>(s, weights), 0) : 0), ...);
  return result;
}

}  // namespace

bool fits_gaussian_words(const CudaStage& s, int r) {
  return s.in.bytes == 1 && r >= 1 && r <= kMaxGaussianWordsRadius && !s.tables.any() && word_rows::fits(s.in);
}

cudaError_t launch_gaussian_words(const CudaStage& s, int r) {
  Weights weights{};
  for (int i = 0; i <= r; ++i) weights.w[i] = static_cast<std::uint32_t>(s.host_data[kGaussianWeightsAt + i]);
  return with_channels(s, [&](auto c) {
    return launch<decltype(c)::value>(s, r, weights, std::make_integer_sequence<int, kMaxGaussianWordsRadius>{});
  });
}

}  // namespace gpuimg
