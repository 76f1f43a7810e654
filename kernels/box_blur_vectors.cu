// Box blur in one pass for 8-bit images whose rows are whole 16-byte
// vectors, at radii up to Blur::kMaxFusedRadius.
//
// Each lane owns one 16-byte vector column of a warp's strip and walks down
// a band of rows. The vertical window sums of its 16 samples sit in 16-bit
// lanes, two samples to a register ((2R+1) * 255 fits), and take the entering
// row and drop the leaving one with a mask and a three-way add per register.
// The horizontal window reaches R * C samples into the neighbouring lanes'
// columns, which come by shuffles; a warp's outer G lanes only feed their
// neighbours, so strips overlap by 2G vectors. Rows go in and out as single
// 16-byte loads and stores, with no shared memory, and the loads of the
// next kAhead rows are in flight while a row is summed.
//
// At 7680x4320 RGB on the H100 it takes 0.085, 0.085 and 0.106 ms at R = 1,
// 3 and 8, where the fused kernel, staging rows through shared memory, took
// 0.127, 0.136 and 0.157; at 7680x4320 gray, 0.034 and 0.041 at R = 1 and 3
// against 0.071 and 0.077.
//
// Fused: the pass's tables apply to each row vector a lane takes into its
// sums and to each vector it writes (pass_tables.cuh).
#include <algorithm>
#include <cstdint>

#include "box_blur_paths.hpp"
#include "byte_lanes.hpp"
#include "pass_tables.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 8;
// Blocks for every block the GPU holds at once, each a band of rows no
// shorter than the window. Short bands pay for starting their windows, yet
// at 7680x4320 RGB, R = 3, 1, 2, 4, 8 and 16 blocks a slot took 0.126,
// 0.108, 0.096, 0.087 and 0.088 ms (R = 1: 0.105, 0.096, 0.096, 0.090,
// 0.091): a band's first 2R + 1 rows load all at once, where the rest of
// the band keeps only kAhead rows in flight.
constexpr int kBlocksPerSlot = 8;

template <int C, int R> struct VectorShape {
  static constexpr int kReach = R * C;          // samples on either side
  static constexpr int G = (kReach + 15) / 16;  // lanes on either side that only feed others
  static_assert(G <= 2, "a window reaches at most two lanes away");
  static constexpr int kOutLanes = 32 - 2 * G;
  static constexpr int kExt = 16 + 2 * kReach;  // the samples a lane's window spans
  static constexpr std::uint32_t n = (2 * R + 1) * (2 * R + 1);
  // Rows ahead whose loads are in flight. At 7680x4320 RGB, 1, 2 and 3
  // took 0.097, 0.100 and 0.111 ms at R = 1, and 0.124, 0.112 and 0.107 at
  // R = 3 (R = 2: 0.110, 0.108, 0.103): past R = 1 the registers they take
  // cost less than the latency they hide.
  static constexpr int kAhead = R == 1 ? 1 : 3;
  // The rounded mean (h + n/2) / n as the top byte of h * M + (n/2) * M,
  // M = ceil(2^24 / n): with e = M n - 2^24, the quotient is exact while
  // x e < 2^24 for every numerator x (Granlund and Montgomery), and the
  // product stays below 2^32. One multiply-add a sample, and the bytes
  // pack with permutes.
  static constexpr std::uint32_t M = ((1u << 24) + n - 1) / n;
  static constexpr std::uint64_t kMaxNumerator = 255ull * n + n / 2;
  static_assert(kMaxNumerator * (1ull * M * n - (1u << 24)) < (1u << 24), "the quotient is exact");
  static_assert(kMaxNumerator * M < (1ull << 32), "the product fits 32 bits");
};

template <int C> __device__ __forceinline__ uint4 map_vector(const uint4& u, const unsigned char* table) {
  return make_uint4(map_word<C>(u.x, table), map_word<C>(u.y, table), map_word<C>(u.z, table),
                    map_word<C>(u.w, table));
}

template <int C, int R, bool Fused>
__global__ void __launch_bounds__(32 * kWarps)
    vector_blur_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, int vectors, int height, int strips,
                       int band, PassTables tables) {
  using S = VectorShape<C, R>;
  extern __shared__ ByteTables bytes[];  // Fused: the pass's tables
  if constexpr (Fused) {
    stage_byte_tables(tables, bytes[0]);
    __syncthreads();
  }
  const int lane = threadIdx.x % 32;
  const int strip = blockIdx.x * kWarps + threadIdx.x / 32;
  if (strip >= strips) return;  // the whole warp
  const int v = strip * S::kOutLanes - S::G + lane;  // this lane's vector of the row
  const bool writes = lane >= S::G && lane < 32 - S::G && v < vectors;

  // Lanes past the row's ends hold the edge pixel's samples, permuted from
  // the row's first or last word: byte o (< 0, or >= the row's length N)
  // takes channel o mod C of the edge pixel.
  const bool inside = v >= 0 && v < vectors;
  const int from = v < 0 ? 0 : vectors - 1;
  unsigned select[4] = {};
  if (!inside) {
    const long long o0 = 16LL * v - (v < 0 ? 0 : 16LL * vectors);
#pragma unroll
    for (int w = 0; w < 4; ++w)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int ch = static_cast<int>(((o0 + 4 * w + j) % C + C) % C);
        select[w] |= static_cast<unsigned>(v < 0 ? ch : 4 - C + ch) << (4 * j);
      }
  }
  // Only the strips at the row's ends have such lanes: elsewhere the whole
  // warp skips the permutes. They apply when a row is used, not when it is
  // loaded, so that a load is one unconditional instruction: at 7680x4320
  // RGB, R = 6 and 8 took 0.100 and 0.107 ms where they took 0.108 and 0.123
  // with the permutes in the loads (ncu: 11% fewer instructions at R = 8).
  const bool edge_strip = __any_sync(~0u, !inside);
  const auto load = [&](int y) {
    const uint4* row = src + static_cast<std::size_t>(clamp_index(y, height)) * vectors;
    return row[inside ? v : from];
  };
  const auto own = [&](const uint4& loaded) {
    uint4 u = loaded;
    if (edge_strip && !inside) {
      const std::uint32_t word = v < 0 ? u.x : u.w;
      u = make_uint4(__byte_perm(word, 0, select[0]), __byte_perm(word, 0, select[1]), __byte_perm(word, 0, select[2]),
                     __byte_perm(word, 0, select[3]));
    }
    if constexpr (Fused) u = map_vector<C>(u, bytes[0].load);
    return u;
  };

  // Column sums: col[2w] holds samples 4w and 4w + 2, col[2w + 1] 4w + 1 and 4w + 3.
  std::uint32_t col[8] = {};
  const auto add = [&](uint4 in, uint4 out) {
    const std::uint32_t a[4] = {in.x, in.y, in.z, in.w}, b[4] = {out.x, out.y, out.z, out.w};
#pragma unroll
    for (int w = 0; w < 4; ++w) slide_lanes(col[2 * w], col[2 * w + 1], a[w], b[w]);
  };

  const int y0 = blockIdx.y * band, y1 = min(y0 + band, height);
#pragma unroll
  for (int y = y0 - R; y <= y0 + R; ++y) add(own(load(y)), make_uint4(0, 0, 0, 0));
  // Slot d holds the rows that update the window after row y0 + d + kAhead i,
  // each loaded kAhead rows before it is used.
  uint4 entering[S::kAhead], leaving[S::kAhead];
#pragma unroll
  for (int d = 0; d < S::kAhead; ++d)
    if (y0 + d + 1 < y1) {
      entering[d] = load(y0 + d + R + 1);
      leaving[d] = load(y0 + d - R);
    }

  for (int y = y0; y < y1; y += S::kAhead) {
#pragma unroll
    for (int d = 0; d < S::kAhead; ++d) {
      const int yy = y + d;
      if (yy >= y1) break;
      // The column sums of the lanes up to G away, by shuffles; then the
      // sample at offset i (-kReach .. 15 + kReach) from this lane's first.
      std::uint32_t near[2 * S::G + 1][8];
#pragma unroll
      for (int hop = -S::G; hop <= S::G; ++hop)
#pragma unroll
        for (int r = 0; r < 8; ++r)
          near[hop + S::G][r] = hop == 0 ? col[r]
                                         : (hop < 0 ? __shfl_up_sync(~0u, col[r], -hop)
                                                    : __shfl_down_sync(~0u, col[r], hop));
      std::uint32_t ext[S::kExt];
#pragma unroll
      for (int t = 0; t < S::kExt; ++t) {
        const int i = t - S::kReach;
        const int hop = i < 0 ? -((15 - i) / 16) : i / 16;  // floor(i / 16)
        const int m = i - 16 * hop;
        const std::uint32_t reg = near[hop + S::G][2 * (m / 4) + (m & 1)];
        ext[t] = (m & 2) ? reg >> 16 : reg & 0xffffu;
      }
      // Slide the horizontal windows: sample j's is ext[j], ext[j + C], ... ext[j + 2 kReach].
      std::uint32_t h[16];
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        if (j < C) {
          h[j] = 0;
#pragma unroll
          for (int q = 0; q <= 2 * R; ++q) h[j] += ext[j + q * C];
        } else {
          h[j] = h[j - C] + ext[j + 2 * S::kReach] - ext[j - C];
        }
      }
      std::uint32_t out[4];
#pragma unroll
      for (int w = 0; w < 4; ++w) {
        std::uint32_t t[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) t[j] = h[4 * w + j] * S::M + S::n / 2 * S::M;
        out[w] = __byte_perm(__byte_perm(t[0], t[1], 0x0073), __byte_perm(t[2], t[3], 0x7300), 0x7610);
      }
      uint4 result = make_uint4(out[0], out[1], out[2], out[3]);
      if constexpr (Fused) result = map_vector<C>(result, bytes[0].store);
      if (writes) dst[static_cast<std::size_t>(yy) * vectors + v] = result;

      if (yy + 1 < y1) {
        const uint4 e = own(entering[d]), l = own(leaving[d]);
        if (yy + S::kAhead + 1 < y1) {
          entering[d] = load(yy + S::kAhead + R + 1);
          leaving[d] = load(yy + S::kAhead - R);
        }
        add(e, l);
      }
    }
  }
}

template <int C, int R, bool Fused> cudaError_t launch(const CudaStage& s) {
  const auto kernel = vector_blur_kernel<C, R, Fused>;
  using S = VectorShape<C, R>;
  constexpr std::size_t smem = Fused ? sizeof(ByteTables) : 0;
  const int vectors = s.in.width * C / 16;
  const int strips = (vectors + S::kOutLanes - 1) / S::kOutLanes;
  int slots = 0;
  if (cudaError_t e = resident_blocks(kernel, 32 * kWarps, smem, slots); e != cudaSuccess) return e;
  const int across = (strips + kWarps - 1) / kWarps;
  const int bands = std::max(1, kBlocksPerSlot * slots / across);
  const int band =
      std::max({(s.in.height + bands - 1) / bands, 2 * R + 1, (s.in.height + kMaxGridY - 1) / kMaxGridY});
  const dim3 grid(across, (s.in.height + band - 1) / band);
  kernel<<<grid, 32 * kWarps, smem, s.stream>>>(static_cast<const uint4*>(s.src), static_cast<uint4*>(s.dst), vectors,
                                                s.in.height, strips, band, s.tables);
  return cudaGetLastError();
}

template <int C, int R> cudaError_t launch_radius(const CudaStage& s, int radius) {
  if constexpr (R > Blur::kMaxFusedRadius)
    return cudaErrorInvalidValue;
  else
    return radius == R ? (s.tables.any() ? launch<C, R, true>(s) : launch<C, R, false>(s))
                       : launch_radius<C, R + 1>(s, radius);
}

}  // namespace

bool fits_vector_blur(const CudaStage& s, int radius) {
  return s.in.bytes == 1 && radius >= 1 && radius <= Blur::kMaxFusedRadius &&
         1LL * s.in.width * s.in.channels % 16 == 0 && 1LL * s.in.width * s.in.channels / 16 < (1LL << 31);
}

cudaError_t launch_vector_blur(const CudaStage& s, int radius) {
  if (!fits_vector_blur(s, radius)) return cudaErrorInvalidValue;
  return with_channels(s, [&](auto c) { return launch_radius<decltype(c)::value, 1>(s, radius); });
}

}  // namespace gpuimg
