// The SSIM kernel: one thread per pixel (grid-stride past the grid's cap),
// ssim_at() for each channel, and a block reduction in double. The host adds
// the per-block partials, also in double.
#include <algorithm>

#include "ssim_launch.hpp"

namespace gpuimg {
namespace {

// Enough blocks to fill any current GPU many times over; larger images loop.
constexpr long long kMaxSsimBlocks = 1 << 16;

template <class T>
__global__ void ssim_kernel(const T* __restrict__ a, const T* __restrict__ b, int width, int height, int channels,
                            SsimWindow window, double* __restrict__ partial) {
  __shared__ double sums[4][kSsimBlock];
  double own[4] = {0, 0, 0, 0};
  const ImageView<T> va{a, width, height, channels}, vb{b, width, height, channels};
  const long long pixels = static_cast<long long>(width) * height;
  for (long long i = static_cast<long long>(blockIdx.x) * kSsimBlock + threadIdx.x; i < pixels;
       i += static_cast<long long>(gridDim.x) * kSsimBlock) {
    const int x = static_cast<int>(i % width), y = static_cast<int>(i / width);
    for (int c = 0; c < channels; ++c) own[c] += ssim_at(va, vb, x, y, c, window);
  }
  for (int c = 0; c < 4; ++c) sums[c][threadIdx.x] = own[c];
  __syncthreads();
  for (int half = kSsimBlock / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      for (int c = 0; c < 4; ++c) sums[c][threadIdx.x] += sums[c][threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x < channels) partial[static_cast<long long>(blockIdx.x) * channels + threadIdx.x] = sums[threadIdx.x][0];
}

}  // namespace

int ssim_blocks(long long pixels) {
  return static_cast<int>(std::max(1LL, std::min(kMaxSsimBlocks, (pixels + kSsimBlock - 1) / kSsimBlock)));
}

cudaError_t launch_ssim_sums(const void* a, const void* b, int width, int height, int channels, int bytes_per_sample,
                             const SsimWindow& window, double* partial, cudaStream_t stream) {
  const int blocks = ssim_blocks(static_cast<long long>(width) * height);
  if (bytes_per_sample == 1)
    ssim_kernel<unsigned char><<<blocks, kSsimBlock, 0, stream>>>(static_cast<const unsigned char*>(a),
                                                                   static_cast<const unsigned char*>(b), width,
                                                                   height, channels, window, partial);
  else
    ssim_kernel<unsigned short><<<blocks, kSsimBlock, 0, stream>>>(static_cast<const unsigned short*>(a),
                                                                    static_cast<const unsigned short*>(b), width,
                                                                    height, channels, window, partial);
  return cudaGetLastError();
}

}  // namespace gpuimg
