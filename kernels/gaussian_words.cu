// --gaussian's and --unsharp's one pass for images whose rows are whole
// 32-bit words and whose pixels are at most a word (D bytes), radii up to
// kMaxGaussianWordsRadius, no tables around the stage.
//
// Each thread owns one word column (four 8-bit samples or two 16-bit) and
// walks down a band of rows, as the word rows skeleton does
// (word_rows.cuh), but with a halo of R pixels: each lane puts its word in
// a row of words in shared memory that its warp shares, the lanes at the
// warp's ends also the H = ceil(R D / 4) words past them, and reads back
// the 2H + 1 words around its own (shuffles instead, three instructions a
// word, took S = 1 0.241 ms against 0.215 and S = 3 0.814 against 0.540).
// Words past the row's ends are made of its edge pixel's bytes
// (word_rows::edge_selector), so the sums need no edge cases. Each row's
// one-axis sums along x (Lines, GaussianSums) are made once, from pairs of
// samples folded about the centre (at 8 bits added two to a word,
// byte_lanes.hpp), and kept in registers for the 2R + 1 output rows that
// need them; an output then folds its column of Lines the same way into
// one exact sum.
#include <cstdint>

#include "byte_lanes.hpp"
#include "gaussian_paths.hpp"
#include "word_rows.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 4;  // side by side: a block spans 128 words of a row
// Output rows a step (the ring of Lines moves once a step), and the blocks
// an SM must hold (0: left to ptxas), by radius. Measured at 7680x4320 RGB
// on the H100: S = 1 took 0.215 ms with 2 rows a step, 0.217 with 4, 0.256
// with 8; asking for 10 or 12 blocks made it spill and slower. S = 3 took
// 0.540 with 4 rows and 3 blocks (141 registers), 0.473 with 4 blocks
// (128), 0.510 with 5. Four-byte pixels from r = 8 (a halo of 8 or 9
// words a side) would spill at 128 registers: three blocks. Left to
// itself at r = 4, ptxas held --unsharp to 64 registers and spilled: six
// blocks (85 registers) leave r = 1 to 3 as they were.
template <int R> constexpr int kBatch = R <= 4 ? 2 : 4;
template <int D, int R> constexpr int kMinBlocks = R <= 4 ? 6 : (D == 4 && R >= 8 ? 3 : 4);

struct Weights {
  std::uint32_t w[kMaxGaussianWordsRadius + 1];
};

// The last step, from the rounded blurs g of word k of row y: the blur
// itself, or --unsharp's (ops/unsharp.hpp), which reads the word's samples
// again (loaded R rows before, so from the cache) and keeps alpha.
template <class T> struct BlurWord {
  __device__ std::uint32_t operator()(int, int, const int (&g)[kWordSamples<T>]) const { return word_of<T>(g); }
};

template <class T, int C> struct UnsharpWord {
  const std::uint32_t* src;
  int words;
  Unsharp::Params p;
  __device__ std::uint32_t operator()(int y, int k, const int (&g)[kWordSamples<T>]) const {
    const std::uint32_t v = src[y * words + k];
    int out[kWordSamples<T>];
#pragma unroll
    for (int j = 0; j < kWordSamples<T>; ++j) {
      const int sample = word_sample<T>(v, j);
      const int c = (k % C * kWordSamples<T> + j) % C;  // (N k + j) mod C, without N k passing an int
      out[j] = is_alpha(c, C) ? sample : Unsharp::sharpened<T>(sample, g[j], p);
    }
    return word_of<T>(out);
  }
};

// Word offsets fit an int: word_rows::fits keeps images below 2^31 words.
template <class T, int D, int R, class Finish>
__global__ void __launch_bounds__(32 * kWarps, kMinBlocks<D, R>)
    gaussian_words_kernel(const std::uint32_t* __restrict__ src, std::uint32_t* __restrict__ dst, int words,
                          int height, int band, Weights weights, Finish finish) {
  constexpr int H = (R * D + 3) / 4;  // halo words a side
  using Line = typename GaussianSums<T>::Line;
  constexpr int N = kWordSamples<T>;
  constexpr int B = kBatch<R>;
  constexpr int kRing = 2 * R + B;
  // The batch's rows of words as the warp shares them: row[H + i] the word
  // of lane i, the H before the warp's first and after its last around them.
  __shared__ std::uint32_t shared_rows[kWarps][B][32 + 2 * H];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int first = (blockIdx.x * kWarps + warp) * 32;  // the warp's first word
  if (first >= words) return;                                      // the whole warp
  const int k = first + lane;
  // The halo words: lanes 0 .. H - 1 the H before the warp's, lanes
  // 32 - H .. 31 the H after it.
  const int halo = lane < H ? first - H + lane : (lane >= 32 - H ? first + lane + H : k);
  // A word past the row's ends takes its bytes from the edge pixel.
  const auto source = [&](int i, unsigned& selector) {
    selector = i < 0 ? word_rows::edge_selector<D>(i, false)
                     : (i < words ? 0x3210 : word_rows::edge_selector<D>(i - words, true));
    return min(max(i, 0), words - 1);
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
  // The N Lines of a row from w[H + d], the word d to the right.
  const auto lines = [&](const std::uint32_t (&w)[2 * H + 1], Line (&out)[N]) {
    // The four bytes from byte offset o (from the thread's first byte).
    const auto at = [&](int o) {
      const int i = H + (o >= 0 ? o / 4 : -((3 - o) / 4)), shift = ((o % 4) + 4) % 4;
      return shift == 0 ? w[i] : __funnelshift_r(w[i], w[i + 1], 8 * shift);
    };
    const std::uint32_t centre = w[H];
#pragma unroll
    for (int j = 0; j < N; ++j) out[j] = Line(weights.w[0]) * word_sample<T>(centre, j);
#pragma unroll
    for (int i = 1; i <= R; ++i) {
      const std::uint32_t west = at(-i * D), east = at(i * D);
      if constexpr (sizeof(T) == 1) {
        const std::uint32_t even = even_bytes(west) + even_bytes(east), odd = odd_bytes(west) + odd_bytes(east);
        out[0] += weights.w[i] * (even & 0xffffu);
        out[1] += weights.w[i] * (odd & 0xffffu);
        out[2] += weights.w[i] * (even >> 16);
        out[3] += weights.w[i] * (odd >> 16);
      } else {  // a pair of 16-bit samples passes 16 bits
        out[0] += Line(weights.w[i]) * ((west & 0xffffu) + (east & 0xffffu));
        out[1] += Line(weights.w[i]) * ((west >> 16) + (east >> 16));
      }
    }
  };
  // The Lines of the n rows in[0 .. n), into ring[0 .. n).
  const auto rows_of_lines = [&](const Loaded* in, int n, Line (*ring)[N]) {
    __syncwarp();  // the words of the last batch are read
    for (int i = 0; i < n; ++i) {
      std::uint32_t* row = shared_rows[warp][i];
      row[H + lane] = in[i].own;
      if (lane < H)
        row[lane] = in[i].halo;
      else if (lane >= 32 - H)
        row[lane + 2 * H] = in[i].halo;
    }
    __syncwarp();
    for (int i = 0; i < n; ++i) {
      std::uint32_t w[2 * H + 1];
#pragma unroll
      for (int d = 0; d <= 2 * H; ++d) w[d] = shared_rows[warp][i][lane + d];
      lines(w, ring[i]);
    }
  };

  Line ring[kRing][N];  // ring[i]: the Lines of row y - R + i
#pragma unroll
  for (int i = 0; i < 2 * R; i += B) {
    Loaded in[B];
#pragma unroll
    for (int j = 0; j < B; ++j) in[j] = load(y0 - R + i + j);
    rows_of_lines(in, min(B, 2 * R - i), ring + i);
  }
  Loaded next[B];
#pragma unroll
  for (int i = 0; i < B; ++i) next[i] = load(y0 + R + i);
  // At 8 bits and r = 3 or 4, unrolled over the ring's period, so that the
  // ring's shift by B rows is renamed registers rather than moves each
  // step: 6-8% faster at S = 1 and 1.3 on the H200, where r = 1 and 2 were
  // slower at 8K and 16 bits (Lines of two words) slower at S = 1
  // (docs/PERFORMANCE.md, "Gaussian S = 1, the ring's loop unrolled").
  constexpr int kUnroll = sizeof(T) == 1 && R >= 3 && R <= 4 ? kRing / B : 1;
#pragma unroll kUnroll
  for (int y = y0; y < y1; y += B) {
    Loaded now[B];
#pragma unroll
    for (int i = 0; i < B; ++i) {
      now[i] = next[i];
      if (y + B < y1) next[i] = load(y + B + R + i);
    }
    rows_of_lines(now, B, ring + 2 * R);
#pragma unroll
    for (int i = 0; i < B; ++i) {
      if (y + i >= y1) break;
      int g[N];
#pragma unroll
      for (int j = 0; j < N; ++j) {
        GaussianSums<T> sums;
        sums.add(weights.w[0], ring[i + R][j]);
#pragma unroll
        for (int d = 1; d <= R; ++d) sums.add(weights.w[d], ring[i + R - d][j] + ring[i + R + d][j]);
        g[j] = sums.rounded();
      }
      if (k < words) dst[(y + i) * words + k] = finish(y + i, k, g);
    }
#pragma unroll
    for (int i = 0; i < 2 * R; ++i)
#pragma unroll
      for (int j = 0; j < N; ++j) ring[i][j] = ring[i + B][j];
  }
}

template <class T, int D, int R, class Finish>
cudaError_t launch(const CudaStage& s, const Weights& weights, const Finish& finish) {
  const auto kernel = gaussian_words_kernel<T, D, R, Finish>;
  int slots = 0;
  if (cudaError_t e = resident_blocks(kernel, 32 * kWarps, 0, slots); e != cudaSuccess) return e;
  const int words = static_cast<int>(1LL * s.in.width * D / 4);
  const word_rows::Bands b = word_rows::bands_for(words, s.in.height, kWarps, slots, kBatch<R>);
  kernel<<<b.grid, 32 * kWarps, 0, s.stream>>>(static_cast<const std::uint32_t*>(s.src),
                                               static_cast<std::uint32_t*>(s.dst), words, s.in.height, b.band, weights,
                                               finish);
  return cudaGetLastError();
}

template <class T, int D, class Finish, int... R>
cudaError_t launch(const CudaStage& s, int r, const Finish& finish, std::integer_sequence<int, R...>) {
  Weights weights{};
  for (int i = 0; i <= r; ++i) weights.w[i] = static_cast<std::uint32_t>(s.host_data[kGaussianWeightsAt + i]);
  cudaError_t result = cudaErrorInvalidValue;
  ((r == R + 1 ? (result = launch<T, D, R + 1>(s, weights, finish), 0) : 0), ...);
  return result;
}

constexpr auto kRadii = std::make_integer_sequence<int, kMaxGaussianWordsRadius>{};

}  // namespace

bool fits_gaussian_words(const CudaStage& s, int r) {
  return !s.tables.any() && gaussian_word_rows(r, s.in);
}

namespace {

// Runs `go` with the stage's sample type and channel count, for the shapes
// word_rows::fits takes (16-bit pixels of at most two samples).
template <class Go> cudaError_t with_words(const CudaStage& s, Go&& go) {
  return with_channels(s, [&](auto c) -> cudaError_t {
    constexpr int C = decltype(c)::value;
    if (s.in.bytes == 1) return go(std::uint8_t{}, c);
    if constexpr (C <= 2) return go(std::uint16_t{}, c);
    return cudaErrorInvalidValue;
  });
}

}  // namespace

cudaError_t launch_gaussian_words(const CudaStage& s, int r) {
  return with_words(s, [&](auto zero, auto c) {
    using T = decltype(zero);
    return launch<T, decltype(c)::value * sizeof(T)>(s, r, BlurWord<T>{}, kRadii);
  });
}

cudaError_t launch_unsharp_words(const CudaStage& s, int r, const Unsharp::Params& p) {
  const int words = static_cast<int>(1LL * s.in.width * s.in.channels * s.in.bytes / 4);
  return with_words(s, [&](auto zero, auto c) {
    using T = decltype(zero);
    constexpr int C = decltype(c)::value;
    return launch<T, C * sizeof(T)>(s, r, UnsharpWord<T, C>{static_cast<const std::uint32_t*>(s.src), words, p},
                                    kRadii);
  });
}

}  // namespace gpuimg
