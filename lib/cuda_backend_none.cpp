// The CUDA entry points of a build without the CUDA toolkit.
#include "backend.hpp"
#include "cuda_lane.hpp"
#include "error.hpp"

namespace gpuimg {

namespace {
constexpr const char* kNoCuda = "this gpuimg was built without CUDA";
}

int cuda_device_count() { return 0; }

bool cuda_device_usable(int, std::string* detail) {
  *detail = kNoCuda;
  return false;
}

bool cuda_usable(std::string* detail) {
  *detail = kNoCuda;
  return false;
}

void run_cuda(Image&, const Pipeline&, RunTimes*) { throw DeviceError(kNoCuda); }

std::string open_runtime_compiler() { return ""; }

struct CudaLane::State {};
CudaLane::CudaLane(int device, const Pipeline&, bool) : device_(device) { throw DeviceError(kNoCuda); }
CudaLane::~CudaLane() = default;
void CudaLane::run(Image&, RunTimes*) { throw DeviceError(kNoCuda); }

}  // namespace gpuimg
