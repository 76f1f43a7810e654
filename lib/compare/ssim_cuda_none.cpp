// ssim_cuda in a build without the CUDA toolkit.
#include "error.hpp"
#include "ssim.hpp"

namespace gpuimg {

std::vector<double> ssim_cuda(const Image&, const Image&) { throw DeviceError("this gpuimg was built without CUDA"); }

}  // namespace gpuimg
