// convolve_small.cuh's kernels at 8 bits.
#include "convolve_small.cuh"

namespace gpuimg {
template cudaError_t launch_small_convolve_of<std::uint8_t>(const CudaStage& s, const Convolve::Params& p);
}  // namespace gpuimg
