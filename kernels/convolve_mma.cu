// --convolve on the tensor cores, for the stages convolve_mma.hpp admits:
// integer matrix products on bytes (byte_mma.cuh), summed exactly in ints.
//
// One product makes 16 consecutive bytes (of the interleaved row) of 8
// rows for one row dy of the kernel. A holds that row of weights laid
// along the bytes, A[j][k] = weight dx where k = b + 8 + P (dx - W / 2),
// b the output byte of row j and P the pixel's bytes, zero elsewhere: the
// same for every product, so each lane loads its fragments once, as the
// host made them (mma_weight_fragments). B holds the 8 rows' 32 bytes from
// 8 bytes before the first output. Summed over the kernel's rows, D is
// each output's exact S (ops/convolve.hpp), which one integer rounding
// makes the sample. A 16-bit sample is lo + 256 hi: its rows of A sum its
// low and its high bytes apart (mma_output_byte), and S = S_lo + 256 S_hi,
// exact in an int as S is less than 2^24.
//
// A block of 4 warps owns a tile of 256 bytes by 32 rows, a warp 8 of
// the rows. It stages the tile's rows, with the kernel's rows above and
// below and 16 bytes each side, in shared memory as 16-byte vectors.
// Image rows are whole words, so a row's first byte lands at a whole word
// of its first vector, and every B operand is one aligned word.
#include <algorithm>
#include <cstdint>

#include "byte_mma.cuh"
#include "convolve_mma.hpp"
#include "convolve_paths.hpp"
#include "row_io.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kTileBytes = 256;
constexpr int kTileRows = 8 * kWarps;
constexpr int kProducts = kTileBytes / 16;  // along a warp's rows, taken two at a time
static_assert(kProducts % 2 == 0, "whole pairs of products");
constexpr int kMargin = 16;                    // bytes staged each side of the tile
constexpr int kStagedBytes = kTileBytes + 2 * kMargin;
// A staged row: its bytes from the vector that holds the first, up to 12
// bytes into it, so at most 19 vectors. 76 words puts each row 12 banks on
// from the one above: where every row lands at the same word (rows of whole
// 16-byte vectors), a product's 8 rows meet 8 different sets of 4 banks.
constexpr int kRowVectors = (12 + kStagedBytes + 15) / 16;
constexpr int kRowWords = 76;
static_assert(4 * kRowWords >= 16 * kRowVectors && kRowVectors <= 32, "a vector a lane fills a staged row");
constexpr int kOutStride = kTileBytes + 16;  // bytes of a row of results
constexpr int kBatch = 4;  // rows a warp loads at once

template <int KH> struct MmaTile {
  static constexpr int kRows = kTileRows + KH - 1;
  static constexpr int kRowsPerWarp = (kRows + kWarps - 1) / kWarps;
  static constexpr int kOutAt = kRows * 4 * kRowWords;
  static constexpr int kShiftsAt = kOutAt + kTileRows * kOutStride;
  static constexpr int kSharedBytes = kShiftsAt + 4 * kRows;
  static_assert(kOutAt % 16 == 0 && kOutStride % 16 == 0, "rows of results are copied out as vectors");
};

// Blocks an SM to hold registers to: 64 registers each, but 80 where 7
// rows of A's fragments take 28 of them (ptxas spills a word or two at
// some heights either way).
template <int KH> constexpr int kMinBlocks = KH <= 5 ? 8 : 6;

// The sample from a sum that started at the rounding's half (the
// accumulators' first value, mma_kernel): exact_result's arithmetic less
// its add, the sign a multiply rather than a select. Below zero, the half
// leaves the quotient 0, as exact_result's clamp does.
template <class T> __device__ __forceinline__ T biased_result(int biased, int sign, const ConvolveSums& s) {
  const std::uint32_t p = static_cast<std::uint32_t>(max(sign * biased, 0));
  const std::uint32_t q = s.divisor >= 2 ? __umulhi(p, s.divide.magic) >> s.divide.shift : p;
  return T(min(q, std::uint32_t{SampleTraits<T>::max}));
}

// Product m's results, as lane (g, t) holds them (byte_mma.cuh), into a
// warp's 8 rows of results: d[0] and d[1] are output byte 16 m + g of rows
// 2t and 2t + 1, d[2] and d[3] byte 16 m + g + 8; at 16 bits d[0] and d[2]
// are sample 8 m + g's low and high bytes' sums (mma_output_byte).
template <class T>
__device__ __forceinline__ void store_results(unsigned char* out, int m, int g, int t, const int (&d)[4], int sign,
                                              const ConvolveSums& sums) {
  unsigned char* row0 = out + 2 * t * kOutStride;
  unsigned char* row1 = row0 + kOutStride;
  if constexpr (sizeof(T) == 1) {
    row0[16 * m + g] = biased_result<std::uint8_t>(d[0], sign, sums);
    row1[16 * m + g] = biased_result<std::uint8_t>(d[1], sign, sums);
    row0[16 * m + g + 8] = biased_result<std::uint8_t>(d[2], sign, sums);
    row1[16 * m + g + 8] = biased_result<std::uint8_t>(d[3], sign, sums);
  } else {
    reinterpret_cast<std::uint16_t*>(row0)[8 * m + g] = biased_result<std::uint16_t>(d[0] + 256 * d[2], sign, sums);
    reinterpret_cast<std::uint16_t*>(row1)[8 * m + g] = biased_result<std::uint16_t>(d[1] + 256 * d[3], sign, sums);
  }
}

// `pixel` is a pixel's bytes; the image is handled as bytes throughout,
// but for the results (store_results).
template <class T, int KH, bool SignedA>
__global__ void __launch_bounds__(kThreads, kMinBlocks<KH>)
    mma_kernel(const std::uint8_t* __restrict__ src, std::uint8_t* __restrict__ dst, int width, int height,
               int pixel, const std::int32_t* __restrict__ data, const std::uint32_t* __restrict__ fragments,
               int tiles_y) {
  using S = MmaTile<KH>;
  extern __shared__ __align__(16) unsigned char smem[];
  auto* rows = reinterpret_cast<std::uint32_t*>(smem);
  auto* shifts = reinterpret_cast<int*>(smem + S::kShiftsAt);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, g = lane / 4, t = lane % 4;
  const int row_len = width * pixel;  // bytes
  const int s0 = blockIdx.x * kTileBytes;
  const std::uintptr_t image = reinterpret_cast<std::uintptr_t>(src);
  const std::uintptr_t image_end = image + static_cast<std::size_t>(height) * row_len;
  const ConvolveSums sums = Convolve::sums(data);
  // Each sum starts at the half that rounds its quotient, with the sign
  // the results take (biased_result); at 16 bits only the low bytes' sums.
  const int sign = sums.negate ? -1 : 1, half = sign * static_cast<int>(sums.divide.half);
  const int bias[4] = {half, half, sizeof(T) == 1 ? half : 0, sizeof(T) == 1 ? half : 0};
  std::uint32_t a[KH][4];
#pragma unroll
  for (int dy = 0; dy < KH; ++dy)
#pragma unroll
    for (int q = 0; q < 4; ++q) a[dy][q] = fragments[(4 * dy + q) * 32 + lane];
  const bool left_edge = s0 == 0, right_edge = s0 + kTileBytes + kMargin > row_len;
  // Every vector of a staged row within its image row: no loads to check.
  const bool interior = !left_edge && s0 - kMargin + 16 * kRowVectors <= row_len;
  // Every row of results starts at a whole vector of the image.
  const bool whole_vectors = row_len % 16 == 0 && reinterpret_cast<std::uintptr_t>(dst) % 16 == 0;
  // Where byte row_len lies in a staged row, from the row's byte s0 - kMargin.
  const int right = row_len - s0 + kMargin;
  const auto row_from = [&](int y0, int r) {
    return image + static_cast<std::size_t>(clamp_index(y0 + r - KH / 2, height)) * row_len + s0 - kMargin;
  };

  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int y0 = ty * kTileRows;
    // Staged row r is image row y0 + r - KH / 2 (clamped), from byte
    // s0 - kMargin, landed `shift` bytes into its first vector; a warp's
    // rows kBatch at a time, their loads in flight together.
#pragma unroll
    for (int i0 = 0; i0 < S::kRowsPerWarp; i0 += kBatch) {
      uint4 v[kBatch];
#pragma unroll
      for (int i = i0; i < i0 + kBatch; ++i) {
        const int r = warp + kWarps * i;
        if (i >= S::kRowsPerWarp || r >= S::kRows || lane >= kRowVectors) continue;
        const std::uintptr_t at = row_from(y0, r) / 16 * 16 + 16 * lane;
        if (interior || (at >= image && at + 16 <= image_end)) {
          v[i - i0] = *reinterpret_cast<const uint4*>(at);
        } else {  // past the image's ends: what lies inside, the rest replaced below
          union {
            uint4 q;
            unsigned char b[16];
          } u = {};
          for (int b = 0; b < 16; ++b)
            if (at + b >= image && at + b < image_end) u.b[b] = *reinterpret_cast<const unsigned char*>(at + b);
          v[i - i0] = u.q;
        }
      }
#pragma unroll
      for (int i = i0; i < i0 + kBatch; ++i) {
        const int r = warp + kWarps * i;
        if (i >= S::kRowsPerWarp || r >= S::kRows) continue;
        if (lane < kRowVectors) reinterpret_cast<uint4*>(rows + r * kRowWords)[lane] = v[i - i0];
        if (lane == 0) shifts[r] = static_cast<int>(row_from(y0, r) & 15) / 4;
      }
    }
    if (left_edge || right_edge) {  // bytes past the row's ends copy its edge pixel's
      __syncwarp();
#pragma unroll
      for (int i = 0; i < S::kRowsPerWarp; ++i) {
        const int r = warp + kWarps * i;
        if (r >= S::kRows) break;
        unsigned char* b = smem + 4 * r * kRowWords + (row_from(y0, r) & 15);
        if (left_edge && lane < kMargin) b[lane] = b[kMargin + ((lane - kMargin) % pixel + pixel) % pixel];
        for (int k = max(right, 0) + lane; k < kStagedBytes; k += 32) b[k] = b[right - pixel + (s0 - kMargin + k) % pixel];
      }
    }
    __syncthreads();

    // B's first word for product 0 of kernel row dy: lane (g, t) reads row
    // g + dy of its warp's, from 8 bytes before the outputs.
    int at[KH];
#pragma unroll
    for (int dy = 0; dy < KH; ++dy) {
      const int r = 8 * warp + g + dy;
      at[dy] = r * kRowWords + shifts[r] + (kMargin - 8) / 4 + t;
    }
    unsigned char* out = smem + S::kOutAt + 8 * warp * kOutStride;
    // Two products at a time, which share a word of B on each kernel row:
    // three loads of it where one at a time took four.
#pragma unroll 1
    for (int m = 0; m < kProducts; m += 2) {
      int d0[4] = {bias[0], bias[1], bias[2], bias[3]}, d1[4] = {bias[0], bias[1], bias[2], bias[3]};
#pragma unroll
      for (int dy = 0; dy < KH; ++dy) {
        const std::uint32_t* b = rows + at[dy] + 4 * m;
        const std::uint32_t b0 = b[0], b1 = b[4], b2 = b[8];
        mma_bytes<SignedA, false>(d0, a[dy], b0, b1, d0);
        mma_bytes<SignedA, false>(d1, a[dy], b1, b2, d1);
      }
      store_results<T>(out, m, g, t, d0, sign, sums);
      store_results<T>(out, m + 1, g, t, d1, sign, sums);
    }
    __syncwarp();
    const int n = min(kTileBytes, row_len - s0);
    if (whole_vectors && n == kTileBytes) {
      // 8 rows of 16 vectors, 4 a lane: no heads, tails or shifts, which
      // copy_row_out pays for a row at a time (a third of the kernel's
      // instructions at 7680x4320 RGB).
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int q = 2 * i + lane / 16, y = y0 + 8 * warp + q;
        const int v = 16 * (lane % 16);
        if (y < height)
          *reinterpret_cast<uint4*>(dst + static_cast<std::size_t>(y) * row_len + s0 + v) =
              *reinterpret_cast<const uint4*>(out + q * kOutStride + v);
      }
    } else {
#pragma unroll
      for (int q = 0; q < 8; ++q) {
        const int y = y0 + 8 * warp + q;
        if (y < height) copy_row_out(out + q * kOutStride, dst + static_cast<std::size_t>(y) * row_len + s0, n);
      }
    }
    __syncthreads();  // the tile is read before the next one is staged
  }
}

template <class T, int KH, bool SignedA> cudaError_t launch_tiles(const CudaStage& s, const std::uint32_t* fragments) {
  const int pixel = s.in.channels * s.in.bytes, row_len = s.in.width * pixel;
  const int tiles_x = (row_len + kTileBytes - 1) / kTileBytes;
  const int tiles_y = (s.in.height + kTileRows - 1) / kTileRows;
  static_assert(MmaTile<KH>::kSharedBytes <= 48 * 1024, "a launch takes 48 KB without asking");
  mma_kernel<T, KH, SignedA><<<dim3(tiles_x, std::min(tiles_y, kMaxGridY)), kThreads, MmaTile<KH>::kSharedBytes, s.stream>>>(
      static_cast<const std::uint8_t*>(s.src), static_cast<std::uint8_t*>(s.dst), s.in.width, s.in.height, pixel,
      s.data, fragments, tiles_y);
  return cudaGetLastError();
}

template <class T, bool SignedA> cudaError_t launch_tiles(const CudaStage& s, const std::uint32_t* fragments, int kh) {
  static_assert(kMaxMmaConvolveSide == 7, "a kernel for each odd height up to it");
  switch (kh) {
    case 1: return launch_tiles<T, 1, SignedA>(s, fragments);
    case 3: return launch_tiles<T, 3, SignedA>(s, fragments);
    case 5: return launch_tiles<T, 5, SignedA>(s, fragments);
    case 7: return launch_tiles<T, 7, SignedA>(s, fragments);
    default: return cudaErrorInvalidValue;
  }
}

template <class T>
cudaError_t launch_tiles(const CudaStage& s, const std::uint32_t* fragments, int kh, MmaWeights kind) {
  return kind == MmaWeights::signed_bytes ? launch_tiles<T, true>(s, fragments, kh)
                                          : launch_tiles<T, false>(s, fragments, kh);
}

}  // namespace

cudaError_t launch_mma_convolve(const CudaStage& s, const Convolve::Params& p, bool& ran) {
  ran = false;
  const MmaWeights kind = mma_convolve_weights(s.in, p, s.host_data);
  if (kind == MmaWeights::none || !aligned_to(s.src, 4) || !aligned_to(s.dst, 4)) return cudaSuccess;
  bool mma = false;
  if (cudaError_t e = compiled_for_byte_mma(mma_kernel<std::uint8_t, 1, true>, mma); e != cudaSuccess || !mma) return e;
  const int n = p.size.width * p.size.height;
  const auto* fragments = reinterpret_cast<const std::uint32_t*>(s.data + Convolve::fragments_at(n));
  ran = true;
  return s.in.bytes == 1 ? launch_tiles<std::uint8_t>(s, fragments, p.size.height, kind)
                         : launch_tiles<std::uint16_t>(s, fragments, p.size.height, kind);
}

}  // namespace gpuimg
