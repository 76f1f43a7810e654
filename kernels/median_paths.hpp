#pragma once
// The median's CUDA paths; median.cu chooses among them by depth and radius
// (see Median in ops/median.hpp). Each enqueues its kernel on the stage's
// stream and returns the launch's error code.
#include "cuda_launch.hpp"

namespace gpuimg {

// R = 1 where the word rows skeleton takes the image and no tables come
// with the stage: each row sorted across once, a word of samples at a time.
bool fits_median_words(const CudaStage& s, int radius);
cudaError_t launch_median_words(const CudaStage& s);

// R = 1 to Median::kMaxGpuNetworkRadius, either depth: selection networks
// in registers over a shared-memory tile.
cudaError_t launch_median_networks(const CudaStage& s, int radius);

// 8-bit images, any radius: a sliding histogram per sample column, in
// shared memory, walking down a band of rows.
cudaError_t launch_median_histogram(const CudaStage& s, int radius);

// 16-bit images, any radius: a bitwise radix select per pixel over a
// shared-memory tile.
cudaError_t launch_median_radix(const CudaStage& s, int radius);

}  // namespace gpuimg
