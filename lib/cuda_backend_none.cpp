// The CUDA entry points of a build without the CUDA toolkit.
#include "backend.hpp"
#include "error.hpp"

namespace gpuimg {

bool cuda_usable(std::string* detail) {
  *detail = "this gpuimg was built without CUDA";
  return false;
}

void run_cuda(Image&, const Pipeline&, RunTimes*) { throw DeviceError("this gpuimg was built without CUDA"); }

}  // namespace gpuimg
