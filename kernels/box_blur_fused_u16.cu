// box_blur_fused.cuh's kernels at 16 bits.
#include "box_blur_fused.cuh"

namespace gpuimg {
template cudaError_t launch_fused_blur_of<std::uint16_t>(const CudaStage& s, int radius);
}  // namespace gpuimg
