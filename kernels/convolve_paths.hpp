#pragma once
// The convolution's CUDA paths (ops/convolve.hpp); Convolve::launch in
// convolve.cu chooses between this one and its own.
#include "cuda_launch.hpp"

namespace gpuimg {

// Kernels on the exact path whose sides are at most this run with their
// weights and a block of sums in each thread's registers
// (convolve_small.cu).
constexpr int kMaxSmallConvolveSide = 7;
cudaError_t launch_small_convolve(const CudaStage& s, const Convolve::Params& p);

}  // namespace gpuimg
