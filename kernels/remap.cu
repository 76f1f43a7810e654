// The remap skeleton: every op of Kind::remap (crop, flips, quarter turns,
// transpose) is one AxisMap (remap.hpp), run by kernels that name no op.
//
// Where the map keeps the axes (crop, flip, flop, rotate 180), each segment
// of an output row is one run of an input row, forwards or backwards: as
// 16-byte vectors where every row and run starts on one, else through the
// row-segment skeleton (row_segments.cuh), which reverses its pixels in
// shared memory where the map does.
//
// Where it swaps them, a block writes a band of 32-column tiles of the
// output: the block reads along input rows into a shared-memory tile and
// writes the output rows from its columns, so both sides of the transpose
// coalesce.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cuda_launch.hpp"
#include "row_io.cuh"
#include "row_segments.cuh"

namespace gpuimg {
namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // warps a block


// ---- maps that keep the axes ----------------------------------------------

// Three words of 4 RGB pixels (or 2 of 6 bytes), their pixels in reverse
// order: byte permutes in registers.
template <int PB> __device__ __forceinline__ void turn_words(std::uint32_t (&w)[3]);
template <> __device__ __forceinline__ void turn_words<3>(std::uint32_t (&w)[3]) {
  // Bytes 0..11 are pixels 0-2, 3-5, 6-8, 9-11; turned, 9 10 11 6 7 8 3 4 5 0 1 2.
  const std::uint32_t t = __byte_perm(w[1], w[2], 0x0043);
  const std::uint32_t w0 = __byte_perm(w[2], w[1], 0x6321), w2 = __byte_perm(w[0], w[1], 0x2105);
  w[1] = __byte_perm(t, w[0], 0x3710);
  w[0] = w0;
  w[2] = w2;
}
template <> __device__ __forceinline__ void turn_words<6>(std::uint32_t (&w)[3]) {
  // Halves 0..5 are pixels 0-2, 3-5; turned, 3 4 5 0 1 2.
  const std::uint32_t w0 = __byte_perm(w[1], w[2], 0x5432), w1 = __byte_perm(w[2], w[0], 0x5432);
  w[2] = __byte_perm(w[0], w[1], 0x5432);
  w[0] = w0;
  w[1] = w1;
}

// The staged run of n_px pixels at loaded + shift, turned into `turned`
// (16-byte aligned). A pixel a lane, as one word or a struct of its
// samples (byte by byte, flop took 1.2x a copy, flip 1.09x); 3- and 6-byte
// pixels as three words a lane (a struct a pixel, RGB flop took 1.11x).
template <int PB>
__device__ __forceinline__ void turn_run(const unsigned char* loaded, int shift, int n_px, unsigned char* turned) {
  using U = typename PixelUnit<PB>::U;
  const int lane = threadIdx.x % 32;
  int done = 0;
  if constexpr (PB == 3 || PB == 6) {
    // Groups of 12 bytes from the run's end; each reads a word past its
    // bytes, inside the staging buffer's room.
    constexpr int kGroup = 12 / PB;
    const int groups = n_px / kGroup;
    for (int q = lane; q < groups; q += 32) {
      std::uint32_t w[3];
      staged_words(loaded, shift + (n_px - kGroup * (q + 1)) * PB, w);
      turn_words<PB>(w);
      auto* to = reinterpret_cast<std::uint32_t*>(turned + 12 * q);
      to[0] = w[0], to[1] = w[1], to[2] = w[2];
    }
    done = groups * kGroup;
  }
  // The run starts on a pixel's alignment (rows are whole pixels).
  const U* from = reinterpret_cast<const U*>(loaded + shift);
  U* to = reinterpret_cast<U*>(turned);
  for (int p = done + lane; p < n_px; p += 32) to[p] = from[n_px - 1 - p];
}

// The map as an op of the row-segment skeleton: a segment's run is one run
// of an input row, forwards or backwards, turned where the map reverses x.
template <int PB> struct KeptAxes {
  AxisMap m;
  int in_w;

  // Lowest pixel first: forwards from (x0, y)'s source, or backwards to it.
  __device__ RowRun run(int y, int x0, int n_px) const {
    const int first = m.xx > 0 ? m.source_x(x0, y) : m.source_x(x0 + n_px - 1, y);
    return {static_cast<std::size_t>(m.source_y(x0, y)) * in_w + first, n_px};
  }
  __device__ const unsigned char* place(const unsigned char* loaded, int shift, int, int n_px,
                                        unsigned char* spare) const {
    if (m.xx > 0) return loaded + shift;
    turn_run<PB>(loaded, shift, n_px, spare);
    return spare;
  }
};

// Where both images' rows and the runs they come from start on 16 bytes
// (flip, flop and rotate 180 of such rows; crops whose left edge falls on
// one), the output moves as 16-byte vectors straight between global memory
// and registers, each vector's pixels reversed where the map turns the
// row; at 3 and 6 bytes a pixel the turned unit is 48 bytes (16 or 8
// pixels), turned in shared memory. A warp takes a chunk of 128 vectors (96
// turned in units) of the output in row order, across rows, and the grid
// has a warp for every chunk. At 7680x4320 on the H100 this took 1.00 to
// 1.03x a copy (RGB and gray 16-bit), where the row-segment skeleton took
// 1.11 to 1.18x; as a one-wave grid, its warps looping over the chunks,
// 1.06 to 1.11x.
constexpr int kVectorWarps = 8;
constexpr long long kMaxVectorBlocks = 1 << 20;  // past it, the grid-stride loop takes the rest

template <int PB, bool Turned> struct VectorRows {
  static constexpr bool kStaged = Turned && PB % 3 == 0;
  static constexpr int kPerLane = kStaged ? 3 : 4;  // vectors in flight a lane
  static constexpr int kChunk = 32 * kPerLane;      // a warp's at once: whole units
};

struct VectorRowsArgs {
  int in_row, out_row;  // vectors a row
  int first;            // the runs' first vector in their input rows
  int src_y0, src_yy;   // output row y comes from input row src_y0 + src_yy y
  int rows32, rem32;    // 32 vectors on: rows32 rows and rem32 vectors further
  long long vectors;    // the output's
};

// A vector's pixels (1, 2, 4 or 8 bytes) in reverse order.
template <int PB> __device__ __forceinline__ uint4 turn_vector(uint4 v) {
  if constexpr (PB == 8) return {v.z, v.w, v.x, v.y};
  constexpr unsigned kPerm = PB == 1 ? 0x0123 : PB == 2 ? 0x1032 : 0x3210;
  return {__byte_perm(v.w, 0, kPerm), __byte_perm(v.z, 0, kPerm), __byte_perm(v.y, 0, kPerm),
          __byte_perm(v.x, 0, kPerm)};
}

// Three vectors of 16 RGB pixels (or 8 of 6 bytes) in reverse order: four
// groups of three words, each turned, the groups in reverse order.
template <int PB> __device__ __forceinline__ void turn_unit(uint4* u) {
  std::uint32_t w[12];
  for (int i = 0; i < 3; ++i) w[4 * i] = u[i].x, w[4 * i + 1] = u[i].y, w[4 * i + 2] = u[i].z, w[4 * i + 3] = u[i].w;
  std::uint32_t t[12];
#pragma unroll
  for (int g = 0; g < 4; ++g) {
    std::uint32_t group[3] = {w[9 - 3 * g], w[10 - 3 * g], w[11 - 3 * g]};
    turn_words<PB>(group);
    t[3 * g] = group[0], t[3 * g + 1] = group[1], t[3 * g + 2] = group[2];
  }
  for (int i = 0; i < 3; ++i) u[i] = {t[4 * i], t[4 * i + 1], t[4 * i + 2], t[4 * i + 3]};
}

template <int PB, bool Turned>
__global__ void __launch_bounds__(32 * kVectorWarps)
    vector_rows_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, VectorRowsArgs a) {
  using VR = VectorRows<PB, Turned>;
  __shared__ uint4 staged[VR::kStaged ? kVectorWarps : 1][VR::kChunk];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const long long warps = 1LL * gridDim.x * kVectorWarps;
  for (long long f0 = (1LL * blockIdx.x * kVectorWarps + warp) * VR::kChunk; f0 < a.vectors; f0 += warps * VR::kChunk) {
    const int n = static_cast<int>(min(1LL * VR::kChunk, a.vectors - f0));
    // The lane's first vector: column k of output row y; then 32 on each time.
    int y = static_cast<int>((f0 + lane) / a.out_row), k = static_cast<int>((f0 + lane) % a.out_row);
    uint4 v[VR::kPerLane];
#pragma unroll
    for (int j = 0; j < VR::kPerLane; ++j) {
      if (lane + 32 * j < n) {
        // Turned, vector k of a 48-byte unit u is part k - 3u of the unit
        // u places from the row's end.
        const int x = !Turned ? k : VR::kStaged ? a.out_row - 3 - k + 2 * (k % 3) : a.out_row - 1 - k;
        v[j] = src[static_cast<std::size_t>(a.src_y0 + a.src_yy * y) * a.in_row + a.first + x];
        if constexpr (Turned && !VR::kStaged) v[j] = turn_vector<PB>(v[j]);
      }
      y += a.rows32, k += a.rem32;
      if (k >= a.out_row) k -= a.out_row, ++y;
    }
    if constexpr (VR::kStaged) {
      uint4* chunk = staged[warp];
#pragma unroll
      for (int j = 0; j < VR::kPerLane; ++j)
        if (lane + 32 * j < n) chunk[lane + 32 * j] = v[j];
      __syncwarp();
      if (3 * lane < n) turn_unit<PB>(chunk + 3 * lane);
      __syncwarp();
#pragma unroll
      for (int j = 0; j < VR::kPerLane; ++j)
        if (lane + 32 * j < n) v[j] = chunk[lane + 32 * j];
      __syncwarp();  // the chunk is refilled for the next
    }
#pragma unroll
    for (int j = 0; j < VR::kPerLane; ++j)
      if (lane + 32 * j < n) dst[f0 + lane + 32 * j] = v[j];
  }
}

template <int PB, bool Turned> cudaError_t launch_vector_rows(const CudaStage& s, const AxisMap& m, long long first) {
  using VR = VectorRows<PB, Turned>;
  VectorRowsArgs a{};
  a.in_row = static_cast<int>(1LL * s.in.width * PB / 16);
  a.out_row = static_cast<int>(1LL * s.out.width * PB / 16);
  a.first = static_cast<int>(first / 16);
  a.src_y0 = m.y0;
  a.src_yy = m.yy;
  a.rows32 = 32 / a.out_row;
  a.rem32 = 32 % a.out_row;
  a.vectors = 1LL * s.out.height * a.out_row;
  const long long chunks = (a.vectors + VR::kChunk - 1) / VR::kChunk;
  const int blocks = static_cast<int>(std::clamp<long long>((chunks + kVectorWarps - 1) / kVectorWarps, 1, kMaxVectorBlocks));
  vector_rows_kernel<PB, Turned><<<blocks, 32 * kVectorWarps, 0, s.stream>>>(static_cast<const uint4*>(s.src),
                                                                            static_cast<uint4*>(s.dst), a);
  return cudaGetLastError();
}

template <int PB> cudaError_t launch_rows(const CudaStage& s, const AxisMap& m) {
  const bool turned = m.xx < 0;
  // The run's lowest byte in its input row; a turned row moves in units of
  // 16 bytes, or 48 where pixels do not divide 16.
  const long long first = (turned ? m.x0 - s.out.width + 1LL : m.x0) * PB;
  const int unit = turned && PB % 3 == 0 ? 48 : 16;
  const bool vectors = (1LL * s.in.width * PB) % 16 == 0 && (1LL * s.out.width * PB) % unit == 0 && first % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(s.src) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(s.dst) % 16 == 0;
  if (vectors && turned) return launch_vector_rows<PB, true>(s, m, first);
  if (vectors) return launch_vector_rows<PB, false>(s, m, first);
  return launch_row_segments<PB>(s, kSegmentRoom / PB, KeptAxes<PB>{m, s.in.width});
}

// ---- maps that swap them ----------------------------------------------------

// A tile moved in 32-bit words: where a pixel is 1, 2, 3 or 6 bytes, a
// pixel a thread is a byte or half-word access (RGB a struct of three), and
// transpose took 1.59x a copy at 7680x4320 RGB, 1.56x at gray 16-bit. The
// input rows' runs land in shared memory as words; each output word is put
// together from the tile's bytes (half-words at 2 and 6 bytes). Only for
// whole bands whose every run starts on a word: the others go a tile at a
// time, a pixel a thread. (Lanes moving single bytes of RGB, so that each
// access covered whole sectors, measured slower than the struct: 0.147 ms
// against 0.130.)
template <int PB, bool Used = PB == 1 || PB == 2 || PB == 3 || PB == 6> struct TileWords {
  static constexpr bool kUsed = false;
  static constexpr int kBand = kTile;
  static constexpr int kStride = 1;
};
template <int PB> struct TileWords<PB, true> {
  static constexpr bool kUsed = true;
  // Output rows a block takes at once, in tiles: a taller band keeps more
  // bytes in flight a block (transpose of 7680x4320 on the H100, a copy's
  // time: gray 16-bit 1.30x a tile at a time, 1.14x two, 1.09x four; RGB
  // 1.39x, 1.38x, 1.22x). At 6 bytes two tiles took 128 registers.
  static constexpr int kBandTiles = PB != 6 ? 4 : 1;
  static constexpr int kBand = kTile * kBandTiles;
  using E = std::conditional_t<PB % 2 == 0, std::uint16_t, std::uint8_t>;
  static constexpr int kPerWord = 4 / static_cast<int>(sizeof(E));
  static constexpr int kPixelElements = PB / static_cast<int>(sizeof(E));
  static constexpr int kRunWords = kBand * PB / 4;  // an input run of kBand pixels
  static constexpr int kStride = kRunWords | 1;      // odd, so that reads down a column fall in different banks
  static constexpr int kRowWords = kTile * PB / 4;   // an output row of the tile
  static constexpr int kPasses = kTile * kRunWords / (kTile * kRowsPerPass);
};

// Tile row p holds output column x_base + p: the input row it comes from,
// its pixels for output rows y_base.. side by side (forwards or backwards).
// Past them, padding that makes a row an odd number of 4-byte words, so
// that the reads down a column fall in different banks.
template <int PB>
__global__ void __launch_bounds__(kTile * kRowsPerPass)
    transpose_kernel(const unsigned char* __restrict__ src_bytes, unsigned char* __restrict__ dst_bytes, int in_w,
                     int out_w, int out_h, AxisMap m, int bands, bool word_rows) {
  using U = typename PixelUnit<PB>::U;
  using TW = TileWords<PB>;
  constexpr int kStride = kTile + (sizeof(U) >= 3 ? 1 : 4 / sizeof(U));
  __shared__ U tile[kTile][kStride];
  __shared__ std::uint32_t words[TW::kUsed ? kTile : 1][TW::kStride];
  const U* src = reinterpret_cast<const U*>(src_bytes);
  U* dst = reinterpret_cast<U*>(dst_bytes);
  const int lane = threadIdx.x;
  const int thread = threadIdx.y * kTile + lane;
  const int x_base = blockIdx.x * kTile;
  const int cols = min(kTile, out_w - x_base);
  for (int band = blockIdx.y; band < bands; band += gridDim.y) {
    if constexpr (TW::kUsed) {
      const int y_base = band * TW::kBand;
      const int first = min(m.source_x(x_base, y_base), m.source_x(x_base, y_base + TW::kBand - 1));
      if (word_rows && out_h - y_base >= TW::kBand && cols == kTile && (static_cast<unsigned>(first) * PB) % 4 == 0) {
        const auto* in = reinterpret_cast<const std::uint32_t*>(src_bytes);
        auto* out = reinterpret_cast<std::uint32_t*>(dst_bytes);
#pragma unroll
        for (int n = 0; n < TW::kPasses; ++n) {
          const int i = thread + n * kTile * kRowsPerPass, p = i / TW::kRunWords, k = i % TW::kRunWords;
          words[p][k] = in[(static_cast<std::size_t>(m.source_y(x_base + p, y_base)) * in_w + first) * PB / 4 + k];
        }
        __syncthreads();
        if constexpr (PB == 3) {
          // A thread takes four pixels of an output row, three words: each
          // pixel's bytes by a funnel shift of two words of its tile row,
          // the words by byte permutes (a shared-memory byte load a byte,
          // with its own index arithmetic, took 1.50x a copy).
          static_assert(kTile * kRowsPerPass == kTile * kTile / 4, "a thread for every four pixels of a tile");
#pragma unroll
          for (int n = 0; n < TW::kBandTiles; ++n) {
            const int r = thread / (kTile / 4) + n * kTile, c = thread % (kTile / 4) * 4;
            const int q = (m.source_x(x_base, y_base + r) - first) * 3;
            std::uint32_t px[4];
#pragma unroll
            for (int i = 0; i < 4; ++i)
              px[i] = __funnelshift_r(words[c + i][q >> 2], words[c + i][(q >> 2) + 1], 8 * (q & 3));
            std::uint32_t* to = out + (static_cast<std::size_t>(y_base + r) * out_w + x_base + c) * 3 / 4;
            to[0] = __byte_perm(px[0], px[1], 0x4210);
            to[1] = __byte_perm(px[1], px[2], 0x5421);
            to[2] = __byte_perm(px[2], px[3], 0x6542);
          }
          __syncthreads();  // the tile is refilled for the next band
          continue;
        }
        const auto* e = reinterpret_cast<const typename TW::E*>(&words[0][0]);
#pragma unroll
        for (int n = 0; n < TW::kPasses; ++n) {
          const int i = thread + n * kTile * kRowsPerPass, r = i / TW::kRowWords, k = i % TW::kRowWords;
          const int q = (m.source_x(x_base, y_base + r) - first) * TW::kPixelElements;
          std::uint32_t w = 0;
#pragma unroll
          for (int b = 0; b < TW::kPerWord; ++b) {
            const int at = k * TW::kPerWord + b, c = at / TW::kPixelElements;
            w |= std::uint32_t(e[c * TW::kStride * TW::kPerWord + q + at % TW::kPixelElements]) << (32 / TW::kPerWord * b);
          }
          out[(static_cast<std::size_t>(y_base + r) * out_w + x_base) * PB / 4 + k] = w;
        }
        __syncthreads();  // the tile is refilled for the next band
        continue;
      }
    }
    for (int y_base = band * TW::kBand; y_base < min(out_h, (band + 1) * TW::kBand); y_base += kTile) {
      const int rows = min(kTile, out_h - y_base);
      // The input columns of output rows y_base.. run one way or the other.
      const int first = min(m.source_x(x_base, y_base), m.source_x(x_base, y_base + rows - 1));
      // Fixed trip counts, so that a thread's loads are in flight together
      // (a loop to `cols` issues them one after another).
#pragma unroll
      for (int i = 0; i < kTile / kRowsPerPass; ++i) {
        const int p = threadIdx.y + i * kRowsPerPass;
        if (p < cols && lane < rows)
          tile[p][lane] = src[static_cast<std::size_t>(m.source_y(x_base + p, y_base)) * in_w + first + lane];
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < kTile / kRowsPerPass; ++i) {
        const int r = threadIdx.y + i * kRowsPerPass;
        if (r < rows && lane < cols)
          dst[static_cast<std::size_t>(y_base + r) * out_w + x_base + lane] =
              tile[lane][m.source_x(x_base, y_base + r) - first];
      }
      __syncthreads();  // the tile is refilled for the next tile
    }
  }
}

template <int Bytes> cudaError_t launch(const CudaStage& s, const AxisMap& m) {
  if (!m.swaps_axes()) return launch_rows<Bytes>(s, m);
  const int tiles_x = (s.out.width + kTile - 1) / kTile;
  const int bands = (s.out.height + TileWords<Bytes>::kBand - 1) / TileWords<Bytes>::kBand;
  const dim3 grid(tiles_x, std::min(bands, kMaxGridY));
  // Every row of both images starts on a word, and so do the buffers.
  const bool word_rows = (1LL * s.in.width * Bytes) % 4 == 0 && (1LL * s.out.width * Bytes) % 4 == 0 &&
                         reinterpret_cast<std::uintptr_t>(s.src) % 4 == 0 &&
                         reinterpret_cast<std::uintptr_t>(s.dst) % 4 == 0;
  transpose_kernel<Bytes><<<grid, dim3(kTile, kRowsPerPass), 0, s.stream>>>(
      static_cast<const unsigned char*>(s.src), static_cast<unsigned char*>(s.dst), s.in.width, s.out.width,
      s.out.height, m, bands, word_rows);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_remap(const CudaStage& s, const AxisMap& map) {
  if (s.in.channels != s.out.channels || s.in.bytes != s.out.bytes) return cudaErrorInvalidValue;
  switch (s.in.channels * s.in.bytes) {
    case 1: return launch<1>(s, map);
    case 2: return launch<2>(s, map);
    case 3: return launch<3>(s, map);
    case 4: return launch<4>(s, map);
    case 6: return launch<6>(s, map);
    case 8: return launch<8>(s, map);
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace gpuimg
