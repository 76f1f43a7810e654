// convolve_small.cuh's kernels at 16 bits.
#include "convolve_small.cuh"

namespace gpuimg {
template cudaError_t launch_small_convolve_of<std::uint16_t>(const CudaStage& s, const Convolve::Params& p);
}  // namespace gpuimg
