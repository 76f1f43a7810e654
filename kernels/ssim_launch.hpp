#pragma once
// Host-side entry point of the SSIM kernel (metrics.cu).
#include <cuda_runtime.h>

#include "metrics.hpp"

namespace gpuimg {

// Threads per block of the SSIM kernel; each block leaves one partial sum per channel.
constexpr int kSsimBlock = 256;

// The number of blocks launch_ssim_sums uses for an image of `pixels` pixels.
int ssim_blocks(long long pixels);

// Enqueues on `stream` the SSIM of every pixel of the two device images
// (same size, channels and sample size), summed per block and channel into
// partial[block * channels + c], ssim_blocks(width * height) blocks.
// Returns the launch's error code.
cudaError_t launch_ssim_sums(const void* a, const void* b, int width, int height, int channels, int bytes_per_sample,
                             const SsimWindow& window, double* partial, cudaStream_t stream);

}  // namespace gpuimg
