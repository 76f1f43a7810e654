#pragma once
// The convolution's CUDA paths (ops/convolve.hpp); Convolve::launch in
// convolve.cu chooses between this one and its own.
#include <cstdint>

#include "cuda_launch.hpp"

namespace gpuimg {

// Kernels on the exact path whose sides are at most this run with their
// weights and a block of sums in each thread's registers
// (convolve_small.cuh; at 8 bits convolve_small_u8.cu, at 16
// convolve_small_u16.cu).
constexpr int kMaxSmallConvolveSide = 7;
template <class T> cudaError_t launch_small_convolve_of(const CudaStage& s, const Convolve::Params& p);
// The tensor cores' path (convolve_mma.cu) where convolve_mma.hpp admits
// the stage and the GPU and buffers allow; `ran` says whether it did.
cudaError_t launch_mma_convolve(const CudaStage& s, const Convolve::Params& p, bool& ran);
inline cudaError_t launch_small_convolve(const CudaStage& s, const Convolve::Params& p) {
  return s.in.bytes == 1 ? launch_small_convolve_of<std::uint8_t>(s, p)
                         : launch_small_convolve_of<std::uint16_t>(s, p);
}

}  // namespace gpuimg
