// Convolutions on the exact path (ops/convolve.hpp) with sides up to
// kMaxSmallConvolveSide, the 5x5 of the speed target among them: the
// kernel's sum is exact in float there, so each thread keeps a block of
// float sums in registers and adds one fused multiply-add a weight a
// sample, the weights in registers too.
//
// A block of 4 warps owns a tile of 256 samples (of the interleaved row, so
// any channel count) by 32 rows. It stages the tile plus the kernel's
// reach in shared memory as floats, converted once: each warp loads its
// rows in 16-byte vectors, a few rows before it lands any (at 1 byte a
// lane a load, too few bytes are in flight to keep up with memory), lands
// them as they are, then converts them. Each thread owns 8
// consecutive samples of 8 rows: it reads each of its 8 + K - 1 staged rows
// once, as 16-byte vectors (8 + (K - 1) C floats, the kernel's reach on
// either side), and adds it into every sum of its block that the row
// reaches. A kernel of sides below K, its size, takes zero weights around it.
// The results go through shared memory to be written as 16-byte vectors.
#include <algorithm>
#include <cstdint>

#include "convolve_paths.hpp"
#include "row_io.cuh"

namespace gpuimg {
namespace {

constexpr int kWarps = 4;
constexpr int kSpan = 8;                    // consecutive samples a thread
constexpr int kRowsEach = 8;                // rows a thread
constexpr int kTileSamples = 32 * kSpan;    // 256
constexpr int kTileRows = kWarps * kRowsEach;  // 32

// Staged rows are addressed through swizzle(): a thread's vectors start 8
// floats apart, so without it lanes i and i + 4 of a quarter warp would read
// the same banks. Flipping bit 2 by bit 5 gives the 8 lanes of each quarter
// warp 8 different groups of 4 banks, and keeps each 4-aligned group whole.
__device__ __forceinline__ int swizzle(int i) { return i ^ (i >> 3 & 4); }

template <class T, int C, int K> struct SmallTile {
  static constexpr int kReach = K / 2 * C;              // samples each side
  static constexpr int kLead = (kReach + 3) / 4 * 4;    // floats before the tile's first sample: aligned vectors
  static constexpr int kOffset = kLead - kReach;        // where a thread's window starts in its first vector
  static constexpr int kWindow = kOffset + kSpan + 2 * kReach;
  static constexpr int kVectors = (kWindow + 3) / 4;
  static constexpr int kRows = kTileRows + K - 1;
  static constexpr int kStaged = kTileSamples + 2 * kReach;  // samples staged a row
  // The last thread's vectors end the row (reading up to 3 floats past
  // what is staged); a multiple of 8, so that swizzle() keeps every index
  // of a row in it.
  static constexpr int kStride = (31 * kSpan + 4 * kVectors + 7) / 8 * 8;
  static constexpr int kOutStride = kTileSamples * static_cast<int>(sizeof(T)) + 16;
  static constexpr int kFloats = kRows * kStride;
  // The rows as loaded: room for a row shifted by up to 15 bytes and the
  // vector past it (copy_row_in).
  static constexpr int kRawBytes = kStaged * static_cast<int>(sizeof(T));
  static constexpr int kRawStride = (kRawBytes + 30 + 15) / 16 * 16;
  static constexpr int kPerLane = row_vectors_per_lane(kRawBytes);
  static constexpr int kRowsPerWarp = (kRows + kWarps - 1) / kWarps;
  // Rows a warp loads before it lands them: 4 vectors a lane in flight.
  static constexpr int kBatch = 4 / kPerLane > 0 ? 4 / kPerLane : 1;
  static constexpr std::size_t kSharedBytes = 4 * kFloats + std::size_t(kRows) * kRawStride + 4 * K * K;
  static_assert(kOffset + kStaged <= kStride, "a staged row fits its stride");
  static_assert(kTileRows * kOutStride <= kFloats * 4, "the results fit where the tile was");
};

// 4 blocks an SM, which their shared memory allows at 8 bits: up to 128
// registers, where ptxas, not knowing the dynamic shared memory, would aim
// for more blocks with fewer and reload the weights.
template <class T, int C, int K>
__global__ void __launch_bounds__(32 * kWarps, 4)
    small_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height,
                 const std::int32_t* __restrict__ data, int kw, int kh, int tiles_y) {
  using S = SmallTile<T, C, K>;
  extern __shared__ __align__(16) unsigned char smem[];
  float* tile = reinterpret_cast<float*>(smem);
  unsigned char* raw = smem + 4 * S::kFloats;
  const int lane = threadIdx.x, warp = threadIdx.y;
  const int row_len = width * C;
  const int s0 = blockIdx.x * kTileSamples;

  // The weights, centred in K x K, in shared memory: each thread lifts
  // them into registers after staging, when its registers are free.
  float* weights = reinterpret_cast<float*>(raw + S::kRows * S::kRawStride);
  const int left = (K - kw) / 2, top = (K - kh) / 2;
  for (int k = warp * 32 + lane; k < K * K; k += 32 * kWarps) {
    const int i = k / K - top, j = k % K - left;
    weights[k] = i >= 0 && i < kh && j >= 0 && j < kw ? Convolve::float_weight(data, i * kw + j) : 0.0f;
  }
  const ConvolveSums sums = Convolve::sums(data);

  // The samples [lo, hi) of each staged row lie in the image; the others
  // replicate its edge pixel, whose samples are among them.
  const int lo = max(s0 - S::kReach, 0), hi = min(s0 - S::kReach + S::kStaged, row_len);
  const auto* image = reinterpret_cast<const unsigned char*>(src);
  const unsigned char* image_end = image + static_cast<std::size_t>(height) * row_len * sizeof(T);
  const std::size_t bytes = static_cast<std::size_t>(hi - lo) * sizeof(T);

  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int y0 = ty * kTileRows;
    int shifts[S::kRowsPerWarp];
#pragma unroll
    for (int b = 0; b < S::kRowsPerWarp; b += S::kBatch) {
      RowInFlight<S::kPerLane> rows[S::kBatch];
#pragma unroll
      for (int i = 0; i < S::kBatch; ++i) {
        const int r = warp + kWarps * (b + i);
        if (b + i < S::kRowsPerWarp && r < S::kRows)
          rows[i] = load_row<S::kPerLane>(
              image + (static_cast<std::size_t>(clamp_index(y0 + r - K / 2, height)) * row_len + lo) * sizeof(T),
              bytes, image, image_end);
      }
#pragma unroll
      for (int i = 0; i < S::kBatch; ++i) {
        const int r = warp + kWarps * (b + i);
        if (b + i < S::kRowsPerWarp && r < S::kRows) shifts[b + i] = store_row(rows[i], bytes, raw + r * S::kRawStride);
      }
    }
    __syncwarp();
#pragma unroll
    for (int i = 0; i < S::kRowsPerWarp; ++i) {
      const int r = warp + kWarps * i;
      if (r >= S::kRows) continue;
      const T* in = reinterpret_cast<const T*>(raw + r * S::kRawStride + shifts[i]);  // sample lo
#pragma unroll
      for (int t = lane; t < S::kStaged; t += 32) {
        int s = s0 - S::kReach + t;
        if (s < lo || s >= hi) {  // the edge pixel's sample of the same channel
          const int x = s >= 0 ? s / C : -((-s + C - 1) / C);
          s = clamp_index(x, width) * C + (s - x * C);
        }
        tile[r * S::kStride + swizzle(S::kOffset + t)] = static_cast<float>(in[s - lo]);
      }
    }
    __syncthreads();

    float w[K][K];
#pragma unroll
    for (int dy = 0; dy < K; ++dy)
#pragma unroll
      for (int dx = 0; dx < K; ++dx) w[dy][dx] = weights[dy * K + dx];
    float acc[kRowsEach][kSpan];
#pragma unroll
    for (int q = 0; q < kRowsEach; ++q)
#pragma unroll
      for (int p = 0; p < kSpan; ++p) acc[q][p] = 0.0f;
#pragma unroll
    for (int r = 0; r < kRowsEach + K - 1; ++r) {
      const float* row = tile + (warp * kRowsEach + r) * S::kStride;
      float win[4 * S::kVectors];
#pragma unroll
      for (int v = 0; v < S::kVectors; ++v) {
        const float4 f = *reinterpret_cast<const float4*>(row + swizzle(lane * kSpan + 4 * v));
        win[4 * v] = f.x;
        win[4 * v + 1] = f.y;
        win[4 * v + 2] = f.z;
        win[4 * v + 3] = f.w;
      }
#pragma unroll
      for (int q = 0; q < kRowsEach; ++q) {
        const int dy = r - q;
        if (dy < 0 || dy >= K) continue;
#pragma unroll
        for (int dx = 0; dx < K; ++dx)
#pragma unroll
          for (int p = 0; p < kSpan; ++p)
            acc[q][p] = __fmaf_rn(w[dy][dx], win[S::kOffset + p + dx * C], acc[q][p]);
      }
    }
    __syncthreads();  // every thread has read the tile; its space takes the results

    auto* out = reinterpret_cast<unsigned char*>(tile);
#pragma unroll
    for (int q = 0; q < kRowsEach; ++q) {
      T* o = reinterpret_cast<T*>(out + (warp * kRowsEach + q) * S::kOutStride) + lane * kSpan;
#pragma unroll
      for (int p = 0; p < kSpan; ++p) o[p] = Convolve::exact_result<T>(__float2int_rn(acc[q][p]), sums);
    }
    __syncwarp();
    const int n = (min(s0 + kTileSamples, row_len) - s0) * static_cast<int>(sizeof(T));
#pragma unroll
    for (int q = 0; q < kRowsEach; ++q) {
      const int y = y0 + warp * kRowsEach + q;
      if (y < height)
        copy_row_out(out + (warp * kRowsEach + q) * S::kOutStride,
                     reinterpret_cast<unsigned char*>(dst + static_cast<std::size_t>(y) * row_len + s0), n);
    }
    __syncthreads();  // the results are out before the next tile is staged
  }
}

template <class T, int C, int K> cudaError_t launch_tiles(const CudaStage& s, const Convolve::Params& p) {
  const int row_len = s.in.width * C;
  const int tiles_x = (row_len + kTileSamples - 1) / kTileSamples;
  const int tiles_y = (s.in.height + kTileRows - 1) / kTileRows;
  using S = SmallTile<T, C, K>;
  // Past the 48 KB a launch may take without asking (all but the smallest
  // tiles: 8-bit RGB 5x5 takes 51 KB).
  if (S::kSharedBytes > 48 * 1024)
    if (cudaError_t e = cudaFuncSetAttribute(small_kernel<T, C, K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(S::kSharedBytes));
        e != cudaSuccess)
      return e;
  small_kernel<T, C, K><<<dim3(tiles_x, std::min(tiles_y, kMaxGridY)), dim3(32, kWarps), S::kSharedBytes, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.in.height, s.data, p.size.width,
      p.size.height, tiles_y);
  return cudaGetLastError();
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

cudaError_t launch_small_convolve(const CudaStage& s, const Convolve::Params& p) {
  return s.in.bytes == 1 ? launch_tiles<std::uint8_t>(s, p) : launch_tiles<std::uint16_t>(s, p);
}

}  // namespace gpuimg
