// --gaussian and --unsharp in one pass, for radii whose working set fits
// shared memory: the image is read once and written once, where the two
// passes of gaussian.cu also write and read each sample's 4- or 8-byte
// one-axis sum (12 times a copy's traffic at 8 bits, measured 14.7 times
// its time at S = 1 on the H100).
//
// A block owns a strip of kStripPixels output pixels (its input r pixels
// wider each side) and walks down a band of kBandRows rows. It keeps the
// last 2r + 1 input rows of its strip in a ring in shared memory; for each
// output row it sums them down every column (the vertical pass, exact as
// a Line), then sums those across each output's window (the horizontal,
// exact in GaussianSums) and rounds once. The sum is the same exact
// integer as gaussian.cu's, whose passes run in the other order
// (gaussian_weights.hpp), so the bytes are the same.
#include <algorithm>
#include <cstdint>

#include "gaussian_store.cuh"

namespace gpuimg {
namespace {

constexpr int kThreads = 256;
constexpr int kStripPixels = 512;
constexpr int kBandRows = 64;
constexpr long long kMaxBlocks = 1 << 20;
// Past this, the ring leaves too few blocks an SM to hide its latency.
constexpr std::size_t kMaxSharedBytes = 96 * 1024;
// Each sample costs 2r shared-memory reads in each direction here, where
// the two passes' column sums share each read among 8 rows: past S = 4 they
// take over until this one reads less.
constexpr int kMaxRadius = 12;

template <class T> std::size_t shared_bytes(int r, int channels) {
  using Line = typename GaussianSums<T>::Line;
  const std::size_t span = static_cast<std::size_t>(kStripPixels + 2 * r) * channels;
  return span * sizeof(Line) + sizeof(std::uint32_t) * (r + 1) + (2 * r + 1) * span * sizeof(T);
}

template <class T, int C, class Store>
__global__ void __launch_bounds__(kThreads)
    fused_gaussian_kernel(const T* __restrict__ src, int width, int height, const std::int32_t* __restrict__ data,
                          Store store, int strips, int bands) {
  using Line = typename GaussianSums<T>::Line;
  extern __shared__ __align__(16) unsigned char shared[];
  const int r = data[0], window = 2 * r + 1;
  const int span = (kStripPixels + 2 * r) * C;
  Line* sums = reinterpret_cast<Line*>(shared);  // one row's vertical sums, the strip and its reach
  std::uint32_t* w = reinterpret_cast<std::uint32_t*>(sums + span);
  T* ring = reinterpret_cast<T*>(w + r + 1);  // input row y in slot y mod (2r + 1)
  for (int i = threadIdx.x; i <= r; i += kThreads) w[i] = data[kGaussianWeightsAt + i];
  const auto row_of = [&](int y) { return ring + static_cast<std::size_t>((y + window) % window) * span; };

  for (long long item = blockIdx.x; item < static_cast<long long>(strips) * bands; item += gridDim.x) {
    const int x0 = static_cast<int>(item % strips) * kStripPixels;
    const int y0 = static_cast<int>(item / strips) * kBandRows, y1 = min(y0 + kBandRows, height);
    const int pixels = min(kStripPixels, width - x0), staged = (pixels + 2 * r) * C;
    // Input row y, edges replicated, into its slot.
    const auto stage = [&](int y) {
      const T* row = src + static_cast<std::size_t>(clamp_index(y, height)) * width * C;
      T* slot = row_of(y);
      for (int i = threadIdx.x; i < staged; i += kThreads) {
        const int px = i / C;
        slot[i] = row[clamp_index(x0 - r + px, width) * C + (i - px * C)];
      }
    };
    __syncthreads();  // the last item's readers are done
    for (int y = y0 - r; y < y0 + r; ++y) stage(y);
    for (int y = y0; y < y1; ++y) {
      stage(y + r);  // over row y - r - 1, which the last vertical pass was the last to read
      __syncthreads();
      const int centre = (y + window) % window;
      for (int i = threadIdx.x; i < staged; i += kThreads) {
        Line v = Line(w[0]) * ring[centre * span + i];
        for (int k = 1, above = centre, below = centre; k <= r; ++k) {  // the slots of rows y - k and y + k
          above = above == 0 ? window - 1 : above - 1;
          below = below == window - 1 ? 0 : below + 1;
          v += Line(w[k]) * (ring[above * span + i] + ring[below * span + i]);
        }
        sums[i] = v;
      }
      __syncthreads();
      for (int i = threadIdx.x; i < pixels * C; i += kThreads) {
        const Line* at = sums + i + r * C;
        GaussianSums<T> acc;
        acc.add(w[0], at[0]);
        for (int k = 1; k <= r; ++k) acc.add(w[k], at[-k * C] + at[k * C]);
        store(y, static_cast<long long>(x0) * C + i, acc.rounded());
      }
    }
  }
}

template <class T, int C, class Store> cudaError_t launch(const CudaStage& s, int r, const Store& store) {
  const std::size_t smem = shared_bytes<T>(r, C);
  auto kernel = fused_gaussian_kernel<T, C, Store>;
  if (smem > 48 * 1024)
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
        e != cudaSuccess)
      return e;
  const int strips = (s.in.width + kStripPixels - 1) / kStripPixels;
  const int bands = (s.in.height + kBandRows - 1) / kBandRows;
  const int blocks = static_cast<int>(std::min(1LL * strips * bands, kMaxBlocks));
  kernel<<<blocks, kThreads, smem, s.stream>>>(static_cast<const T*>(s.src), s.in.width, s.in.height, s.data, store,
                                               strips, bands);
  return cudaGetLastError();
}

}  // namespace

bool fused_gaussian_fits(int r, int channels, int bytes_per_sample) {
  return r <= kMaxRadius &&
         (bytes_per_sample == 1 ? shared_bytes<std::uint8_t>(r, channels) : shared_bytes<std::uint16_t>(r, channels)) <=
         kMaxSharedBytes;
}

template <class T, class Store> cudaError_t launch_fused_gaussian(const CudaStage& s, int r, const Store& store) {
  return with_channels(s, [&](auto c) { return launch<T, decltype(c)::value>(s, r, store); });
}

template cudaError_t launch_fused_gaussian<std::uint8_t>(const CudaStage&, int, const StoreBlur<std::uint8_t>&);
template cudaError_t launch_fused_gaussian<std::uint16_t>(const CudaStage&, int, const StoreBlur<std::uint16_t>&);
template cudaError_t launch_fused_gaussian<std::uint8_t>(const CudaStage&, int, const StoreUnsharp<std::uint8_t>&);
template cudaError_t launch_fused_gaussian<std::uint16_t>(const CudaStage&, int, const StoreUnsharp<std::uint16_t>&);

}  // namespace gpuimg
