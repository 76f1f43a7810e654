#pragma once
// Convolutions on the exact path (ops/convolve.hpp) with sides up to
// kMaxSmallConvolveSide, the 5x5 of the speed target among them: the
// kernel's sum is exact in float there, so each thread keeps a block of
// float sums in registers and adds one fused multiply-add a weight a
// sample, the weights kernel parameters (constant memory, an operand of
// the multiply-add itself, in no register).
//
// A block of 4 warps owns a tile of 256 samples (of the interleaved row, so
// any channel count) by 32 rows. It stages the tile plus the kernel's
// reach in shared memory as the image's own bytes: each warp loads its
// rows in 16-byte vectors, a few rows before it lands any (at 1 byte a
// lane a load, too few bytes are in flight to keep up with memory), lands
// them where their alignment puts them, and, in a tile at the image's left
// or right edge, fills in the samples past the edge. Each thread owns 8
// consecutive samples of 8 rows: it reads each of its 8 + K - 1 staged rows
// once, as the words its 8 + (K - 1) C samples span, turns each sample into
// a float with two instructions (its bits under 2^23's exponent, less
// 2^23), and adds it into every sum of its block that the row reaches (at
// 8 bits and small weights, pairs of integer sums instead: SmallWeights). A
// kernel of sides below K, its size, takes zero weights around it. The
// results go through shared memory to be written as 16-byte vectors.
//
// Staged as floats (four bytes a sample, converted once a sample) the tile
// took 51 KB, four blocks an SM, and converting it cost a third of the
// kernel's instructions: 0.443 ms at 8K RGB on the H100, NPP 0.278.
//
// Compiled once a depth (convolve_small_u8.cu, convolve_small_u16.cu), so
// that the two halves, each of many kernels, build side by side.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "convolve_paths.hpp"
#include "row_io.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 4;
constexpr int kSpan = 8;                    // consecutive samples a thread
constexpr int kRowsEach = 8;                // rows a thread
constexpr int kTileSamples = 32 * kSpan;    // 256
constexpr int kTileRows = kWarps * kRowsEach;  // 32

// The weights centred in K x K, zeros around a smaller kernel: as floats,
// and as integers for the paired sums with their bias.
template <int K> struct SmallWeights {
  float w[K][K];
  std::uint32_t n[K][K];
  std::uint32_t bias;
};

// 8-bit samples whose weights' absolute values add up to at most
// kMaxPairedMagnitude take the paired sums: two samples' sums in the 16-bit
// halves of one integer, one multiply-add for two. Each half starts at a
// bias, 255 times the negative weights' magnitude, so that its sum (S plus
// the bias) lies in [0, 65535] when all is added. The halves' products
// carry into each other along the way, but the arithmetic is modulo 2^32,
// so the final halves are exact whatever passed between them.
constexpr int kMaxPairedMagnitude = 65535 / 255;

template <class T, int C, int K> struct SmallTile {
  static constexpr int kBytes = static_cast<int>(sizeof(T));
  static constexpr int kReach = K / 2 * C;              // samples each side, whole pixels
  static constexpr int kStaged = kTileSamples + 2 * kReach;  // samples staged a row
  static constexpr int kWindow = kSpan + 2 * kReach;    // samples a thread reads a row
  static constexpr int kWords = (kWindow * kBytes + 3) / 4;
  static constexpr int kRows = kTileRows + K - 1;
  // Room before a row's first loaded byte for the samples left of the
  // image, a multiple of 16 (store_row lands vectors aligned).
  static constexpr int kPad = (kReach * kBytes + 15) / 16 * 16;
  // A row as loaded: store_row's n + 30 bytes (its vectors, shifted by up
  // to 15 bytes), which also hold the word staged_words reads past a
  // thread's last.
  static constexpr int kRawStride = (kPad + kStaged * kBytes + 30 + 15) / 16 * 16;
  static constexpr int kOutStride = kTileSamples * kBytes + 16;
  static constexpr int kPerLane = row_vectors_per_lane(kStaged * kBytes);
  static constexpr int kRowsPerWarp = (kRows + kWarps - 1) / kWarps;
  // Rows a warp loads before it lands them: 4 vectors a lane in flight.
  static constexpr int kBatch = 4 / kPerLane > 0 ? 4 / kPerLane : 1;
  static constexpr std::size_t kSharedBytes = std::size_t(kRows) * kRawStride;
  static_assert(kTileRows * kOutStride <= kRows * kRawStride, "the results fit where the tile was");
};

// Sample i of a thread's window, from the words it spans, as a float:
// its bits under the exponent of 2^23 give 2^23 + v exactly.
template <class T> __device__ __forceinline__ float window_sample(const std::uint32_t* words, int i) {
  constexpr std::uint32_t kTwo23 = 0x4B000000u;
  const int at = i * static_cast<int>(sizeof(T));
  const int b = at & 3;
  const std::uint32_t select = sizeof(T) == 1 ? b | 0x7440 : b | (b + 1) << 4 | 0x7400;
  return __int_as_float(static_cast<int>(__byte_perm(words[at >> 2], kTwo23, select))) - 8388608.0f;
}

// Samples s and s + 2 of a thread's window in the 16-bit halves of one
// word, from its words' even bytes and odd bytes, each already spread into
// halves: a spread word itself, or one instruction.
__device__ __forceinline__ std::uint32_t sample_pair(const std::uint32_t* even, const std::uint32_t* odd, int s) {
  const int k = s >> 2;
  switch (s & 3) {
    case 0: return even[k];
    case 1: return odd[k];
    case 2: return __byte_perm(even[k], even[k + 1], 0x5432);
    default: return __byte_perm(odd[k], odd[k + 1], 0x5432);
  }
}

// The first of a thread's four pairs of outputs: outputs p and p + 2 share
// a word (0, 1, 4, 5).
__host__ __device__ constexpr int pair_first(int pp) { return pp < 2 ? pp : pp + 2; }

// A thread's sums for its 8 x 8 samples, in floats: each staged row it
// reads becomes floats once (window_sample), then adds into every row of
// sums it reaches.
template <class T, int C, int K> struct FloatSums {
  using S = SmallTile<T, C, K>;
  float acc[kRowsEach][kSpan];

  __device__ explicit FloatSums(const SmallWeights<K>&) {
#pragma unroll
    for (int q = 0; q < kRowsEach; ++q)
#pragma unroll
      for (int p = 0; p < kSpan; ++p) acc[q][p] = 0.0f;
  }
  struct Row {
    float win[S::kWindow];
  };
  __device__ static Row row(const std::uint32_t (&words)[S::kWords]) {
    Row r;
#pragma unroll
    for (int i = 0; i < S::kWindow; ++i) r.win[i] = window_sample<T>(words, i);
    return r;
  }
  __device__ void add(const Row& r, int q, int dy, const SmallWeights<K>& weights) {
#pragma unroll
    for (int dx = 0; dx < K; ++dx)
#pragma unroll
      for (int p = 0; p < kSpan; ++p) acc[q][p] = __fmaf_rn(weights.w[dy][dx], r.win[p + dx * C], acc[q][p]);
  }
  __device__ std::int32_t sum(int q, int p, const SmallWeights<K>&) const { return __float2int_rn(acc[q][p]); }
};

// The same in pairs of 16-bit halves (8 bits, SmallWeights): each staged row
// is spread once into its even and odd bytes (sample_pair).
template <int C, int K> struct PairedSums {
  using S = SmallTile<std::uint8_t, C, K>;
  std::uint32_t acc[kRowsEach][4];

  __device__ explicit PairedSums(const SmallWeights<K>& weights) {
#pragma unroll
    for (int q = 0; q < kRowsEach; ++q)
#pragma unroll
      for (int pp = 0; pp < 4; ++pp) acc[q][pp] = weights.bias * 0x10001u;
  }
  struct Row {
    std::uint32_t even[S::kWords], odd[S::kWords];
  };
  __device__ static Row row(const std::uint32_t (&words)[S::kWords]) {
    Row r;
#pragma unroll
    for (int k = 0; k < S::kWords; ++k) {
      r.even[k] = __byte_perm(words[k], 0, 0x4240);
      r.odd[k] = __byte_perm(words[k], 0, 0x4341);
    }
    return r;
  }
  __device__ void add(const Row& r, int q, int dy, const SmallWeights<K>& weights) {
#pragma unroll
    for (int dx = 0; dx < K; ++dx)
#pragma unroll
      for (int pp = 0; pp < 4; ++pp) acc[q][pp] += weights.n[dy][dx] * sample_pair(r.even, r.odd, pair_first(pp) + dx * C);
  }
  // Sample p is the low half of pair (p & 1) + (p >> 2) * 2 where p & 2 is 0, else its high half.
  __device__ std::int32_t sum(int q, int p, const SmallWeights<K>& weights) const {
    const std::uint32_t pair = acc[q][(p & 1) + (p >> 2) * 2];
    return static_cast<std::int32_t>(p & 2 ? pair >> 16 : pair & 0xffffu) - static_cast<std::int32_t>(weights.bias);
  }
};

// 4 blocks an SM: up to 128 registers, for the 64 sums and the window
// (the paired sums need half as many).
template <class T, int C, int K, bool Paired>
__global__ void __launch_bounds__(32 * kWarps, Paired ? 5 : 4)
    small_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height,
                 const std::int32_t* __restrict__ data, const SmallWeights<K> weights, int tiles_y) {
  using S = SmallTile<T, C, K>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int row_len = width * C;
  const int s0 = blockIdx.x * kTileSamples;
  const ConvolveSums sums = Convolve::sums(data);

  // The samples [lo, hi) of each staged row lie in the image; the others
  // replicate its edge pixel, whose samples are among them. Both edges are
  // whole pixels: lo is 0 or s0 - kReach, kReach whole pixels; hi is
  // row_len or past the staged samples.
  const int first = s0 - S::kReach;
  const int lo = max(first, 0), hi = min(first + S::kStaged, row_len);
  const auto* image = reinterpret_cast<const unsigned char*>(src);
  const unsigned char* image_end = image + static_cast<std::size_t>(height) * row_len * S::kBytes;
  const std::size_t bytes = static_cast<std::size_t>(hi - lo) * S::kBytes;
  constexpr int kPixel = C * S::kBytes;
  // Where staged row r's first sample (sample `first`) lies in shared
  // memory: store_row lands sample lo as far into its vector as it lies in
  // global memory, so any thread can tell.
  const auto row_source = [&](int y0, int r) {
    return image + (static_cast<std::size_t>(clamp_index(y0 + r - K / 2, height)) * row_len + lo) * S::kBytes;
  };
  const auto row_start = [&](int y0, int r) {
    return r * S::kRawStride + S::kPad + static_cast<int>(reinterpret_cast<std::uintptr_t>(row_source(y0, r)) & 15) -
           (lo - first) * S::kBytes;
  };

  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int y0 = ty * kTileRows;
#pragma unroll
    for (int b = 0; b < S::kRowsPerWarp; b += S::kBatch) {
      RowInFlight<S::kPerLane> rows[S::kBatch];
#pragma unroll
      for (int i = 0; i < S::kBatch; ++i) {
        const int r = warp + kWarps * (b + i);
        if (b + i < S::kRowsPerWarp && r < S::kRows)
          rows[i] = load_row<S::kPerLane>(row_source(y0, r), bytes, image, image_end);
      }
#pragma unroll
      for (int i = 0; i < S::kBatch; ++i) {
        const int r = warp + kWarps * (b + i);
        if (b + i < S::kRowsPerWarp && r < S::kRows) store_row(rows[i], bytes, smem + r * S::kRawStride + S::kPad);
      }
    }
    if (lo > first || hi < first + S::kStaged) {  // a tile at the image's left or right edge
      __syncwarp();
#pragma unroll
      for (int i = 0; i < S::kRowsPerWarp; ++i) {
        const int r = warp + kWarps * i;
        if (r >= S::kRows) continue;
        unsigned char* row = smem + row_start(y0, r);
        const int left = (lo - first) * S::kBytes, right = (hi - first) * S::kBytes;
        for (int b = lane; b < left; b += 32) row[b] = row[left + b % kPixel];
        for (int b = right + lane; b < S::kStaged * S::kBytes; b += 32)
          row[b] = row[right - kPixel + (b - right) % kPixel];
      }
    }
    __syncthreads();

    using Sums = std::conditional_t<Paired, PairedSums<C, K>, FloatSums<T, C, K>>;
    Sums acc(weights);
#pragma unroll
    for (int r = 0; r < kRowsEach + K - 1; ++r) {
      std::uint32_t words[S::kWords];
      staged_words(smem, row_start(y0, warp * kRowsEach + r) + lane * kSpan * S::kBytes, words);
      const typename Sums::Row row = Sums::row(words);
#pragma unroll
      for (int q = 0; q < kRowsEach; ++q) {
        const int dy = r - q;
        if (dy >= 0 && dy < K) acc.add(row, q, dy, weights);
      }
    }
    __syncthreads();  // every thread has read the tile; its space takes the results

#pragma unroll
    for (int q = 0; q < kRowsEach; ++q) {
      T* o = reinterpret_cast<T*>(smem + (warp * kRowsEach + q) * S::kOutStride) + lane * kSpan;
#pragma unroll
      for (int p = 0; p < kSpan; ++p) o[p] = Convolve::exact_result<T>(acc.sum(q, p, weights), sums);
    }
    __syncwarp();
    const int n = (min(s0 + kTileSamples, row_len) - s0) * S::kBytes;
#pragma unroll
    for (int q = 0; q < kRowsEach; ++q) {
      const int y = y0 + warp * kRowsEach + q;
      if (y < height)
        copy_row_out(smem + (warp * kRowsEach + q) * S::kOutStride,
                     reinterpret_cast<unsigned char*>(dst + static_cast<std::size_t>(y) * row_len + s0), n);
    }
    __syncthreads();  // the results are out before the next tile is staged
  }
}

template <class T, int C, int K, bool Paired>
cudaError_t launch_tiles(const CudaStage& s, const SmallWeights<K>& weights) {
  const int row_len = s.in.width * C;
  const int tiles_x = (row_len + kTileSamples - 1) / kTileSamples;
  const int tiles_y = (s.in.height + kTileRows - 1) / kTileRows;
  using S = SmallTile<T, C, K>;
  static_assert(S::kSharedBytes <= 48 * 1024, "a launch takes 48 KB without asking");
  small_kernel<T, C, K, Paired>
      <<<dim3(tiles_x, std::min(tiles_y, kMaxGridY)), dim3(32, kWarps), S::kSharedBytes, s.stream>>>(
          static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.in.height, s.data, weights, tiles_y);
  return cudaGetLastError();
}

template <class T, int C, int K> cudaError_t launch_tiles(const CudaStage& s, const Convolve::Params& p) {
  SmallWeights<K> weights{};
  const int kw = p.size.width, kh = p.size.height;
  double magnitude = 0, negative = 0;
  for (int i = 0; i < kh; ++i)
    for (int j = 0; j < kw; ++j) {
      const float f = Convolve::float_weight(s.host_data, i * kw + j);  // an integer on the exact path
      weights.w[(K - kh) / 2 + i][(K - kw) / 2 + j] = f;
      weights.n[(K - kh) / 2 + i][(K - kw) / 2 + j] = static_cast<std::uint32_t>(static_cast<std::int32_t>(f));
      magnitude += f < 0 ? -f : f;
      negative += f < 0 ? -f : 0;
    }
  if constexpr (sizeof(T) == 1)
    if (magnitude <= kMaxPairedMagnitude) {
      weights.bias = static_cast<std::uint32_t>(255 * negative);
      return launch_tiles<T, C, K, true>(s, weights);
    }
  return launch_tiles<T, C, K, false>(s, weights);
}

template <class T, int C> cudaError_t launch_tiles(const CudaStage& s, const Convolve::Params& p) {
  static_assert(kMaxSmallConvolveSide == 7, "a kernel for each odd side up to it");
  const int side = std::max(p.size.width, p.size.height);
  if (side <= 3) return launch_tiles<T, C, 3>(s, p);
  if (side <= 5) return launch_tiles<T, C, 5>(s, p);
  if (side <= 7) return launch_tiles<T, C, 7>(s, p);
  return cudaErrorInvalidValue;
}

template <class T> cudaError_t launch_tiles(const CudaStage& s, const Convolve::Params& p) {
  return with_channels(s, [&](auto c) { return launch_tiles<T, decltype(c)::value>(s, p); });
}

}  // namespace

template <class T> cudaError_t launch_small_convolve_of(const CudaStage& s, const Convolve::Params& p) {
  return launch_tiles<T>(s, p);
}

}  // namespace gpuimg
