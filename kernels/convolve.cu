// Convolve on the GPU (ops/convolve.hpp): kernels up to
// kMaxSmallConvolveSide on the exact path take the tensor cores
// (convolve_mma.cu) where they can, else convolve_small.cuh; the rest
// take the kernel here, which walks each output's window in the pinned
// order, in double, or in float where the sums are exact.
//
// A block of 8 warps owns a tile of 128 samples (of the interleaved row)
// by 32 rows and stages it, the kernel's reach around it, in shared memory
// as samples, with the weights. Each thread computes 4 samples 32 apart in
// each of 4 rows 8 apart, so that a warp's reads of the tile fall on
// consecutive samples and its writes to the image are coalesced.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "convolve_paths.hpp"

namespace gpuimg {
namespace {

constexpr int kWarps = 8;
constexpr int kTileSamples = 128;
constexpr int kTileRows = 32;
constexpr int kSamplesEach = kTileSamples / 32;
constexpr int kRowsEach = kTileRows / kWarps;

// The shared memory a block takes: the weights (doubles, or floats where
// exact), then the tile of samples. At most 961 doubles and 62 rows of
// 128 + 2 * 15 * 4 16-bit samples: 38440 bytes, under the 48 KB a launch
// may take without asking.
struct WindowTile {
  int reach, staged, rows;  // samples each side, samples a row, rows
  std::size_t weight_bytes;

  WindowTile(const Convolve::Params& p, int channels, bool exact)
      : reach(p.size.width / 2 * channels),
        staged(kTileSamples + 2 * reach),
        rows(kTileRows + p.size.height - 1),
        weight_bytes((exact ? sizeof(float) : sizeof(double)) * p.size.width * p.size.height) {}
  template <class T> std::size_t bytes() const { return weight_bytes + sizeof(T) * staged * rows; }
};

template <class T, bool Exact>
// 4 blocks an SM: 64 registers, where ptxas aiming at 8 spilled the double sums.
__global__ void __launch_bounds__(32 * kWarps, 4)
    window_kernel(const T* __restrict__ src, T* __restrict__ dst, int width, int height, int channels,
                  const std::int32_t* __restrict__ data, int kw, int kh, int tiles_y) {
  using Acc = std::conditional_t<Exact, float, double>;
  extern __shared__ __align__(16) unsigned char smem[];
  const int n = kw * kh;
  Acc* weights = reinterpret_cast<Acc*>(smem);
  T* tile = reinterpret_cast<T*>(smem + sizeof(Acc) * n);
  const int lane = threadIdx.x, warp = threadIdx.y, thread = warp * 32 + lane;
  const int row_len = width * channels;
  const int reach = kw / 2 * channels, staged = kTileSamples + 2 * reach, rows = kTileRows + kh - 1;
  const int s0 = blockIdx.x * kTileSamples;

  for (int i = thread; i < n; i += 32 * kWarps) {
    if constexpr (Exact)
      weights[i] = Convolve::float_weight(data, i);
    else
      weights[i] = Convolve::double_weight(data, n, i);
  }
  const ConvolveSums sums = Convolve::sums(data);
  const double weight_sum = Convolve::double_weight(data, n, n);

  for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const int y0 = ty * kTileRows;
    for (int r = warp; r < rows; r += kWarps) {
      const T* in = src + static_cast<std::size_t>(clamp_index(y0 + r - kh / 2, height)) * row_len;
      for (int t = lane; t < staged; t += 32) {
        int s = s0 - reach + t;
        if (s < 0 || s >= row_len) {  // the edge pixel's sample of the same channel
          const int x = s >= 0 ? s / channels : -((-s + channels - 1) / channels);
          s = clamp_index(x, width) * channels + (s - x * channels);
        }
        tile[r * staged + t] = in[s];
      }
    }
    __syncthreads();

#pragma unroll
    for (int q = 0; q < kRowsEach; ++q) {
      const int r = warp + kWarps * q, y = y0 + r;
#pragma unroll
      for (int k = 0; k < kSamplesEach; ++k) {
        const int t = lane + 32 * k, s = s0 + t;
        Acc sum = 0;
        for (int dy = 0; dy < kh; ++dy) {
          const T* in = tile + (r + dy) * staged + t;
          const Acc* w = weights + dy * kw;
          for (int dx = 0; dx < kw; ++dx) {
            if (w[dx] == 0) continue;  // adds a zero: see cpu_convolve.cpp
            const int v = in[dx * channels];
            if constexpr (Exact)
              sum = __fmaf_rn(w[dx], static_cast<float>(v), sum);
            else
              sum = Convolve::step(sum, w[dx], v);
          }
        }
        if (y < height && s < row_len) {
          T& out = dst[static_cast<std::size_t>(y) * row_len + s];
          if constexpr (Exact)
            out = Convolve::exact_result<T>(__float2int_rn(sum), sums);
          else
            out = Convolve::pinned_result<T>(sum, weight_sum);
        }
      }
    }
    __syncthreads();  // the tile is read before the next one is staged
  }
}

template <class T, bool Exact> cudaError_t launch_window(const CudaStage& s, const Convolve::Params& p) {
  const std::size_t smem = WindowTile(p, s.in.channels, Exact).bytes<T>();
  const int row_len = s.in.width * s.in.channels;
  const int tiles_x = (row_len + kTileSamples - 1) / kTileSamples;
  const int tiles_y = (s.in.height + kTileRows - 1) / kTileRows;
  window_kernel<T, Exact><<<dim3(tiles_x, std::min(tiles_y, kMaxGridY)), dim3(32, kWarps), smem, s.stream>>>(
      static_cast<const T*>(s.src), static_cast<T*>(s.dst), s.in.width, s.in.height, s.in.channels, s.data,
      p.size.width, p.size.height, tiles_y);
  return cudaGetLastError();
}

template <class T> cudaError_t launch_window(const CudaStage& s, const Convolve::Params& p, bool exact) {
  return exact ? launch_window<T, true>(s, p) : launch_window<T, false>(s, p);
}

}  // namespace

int Convolve::launch(const CudaStage& s, const Params& p) {
  if (!s.host_data || s.in != s.out) return cudaErrorInvalidValue;
  const bool exact = Convolve::sums(s.host_data).exact;
  if (exact && std::max(p.size.width, p.size.height) <= kMaxSmallConvolveSide) {
    bool ran = false;
    if (cudaError_t e = launch_mma_convolve(s, p, ran); e != cudaSuccess || ran) return e;
    return launch_small_convolve(s, p);
  }
  return s.in.bytes == 1 ? launch_window<std::uint8_t>(s, p, exact) : launch_window<std::uint16_t>(s, p, exact);
}

}  // namespace gpuimg
