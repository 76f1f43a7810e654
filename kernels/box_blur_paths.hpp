#pragma once
// The box blur's two CUDA paths; box_blur.cu chooses between them.
#include "cuda_launch.hpp"

namespace gpuimg {

// One pass, no scratch, for radius <= Blur::kMaxFusedRadius.
cudaError_t launch_fused_blur(const CudaStage& s, int radius);

}  // namespace gpuimg
