// The CUDA backend's entry points: whether a GPU can run this build, and one
// image through a pipeline (a CudaLane used once). Every CUDA call is
// checked; a failure becomes a DeviceError naming what was being done.
#include <string>

#include <cuda_runtime.h>

#include "backend.hpp"
#include "cuda_lane.hpp"
#include "cuda_launch.hpp"
#include "cuda_resources.hpp"
#include "error.hpp"
#include "nvrtc_library.hpp"

namespace gpuimg {

int cuda_device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

bool cuda_device_usable(int device, std::string* detail) {
  cudaDeviceProp prop{};
  cudaError_t e = cudaGetDeviceProperties(&prop, device);
  if (e != cudaSuccess) {
    *detail = "cannot query CUDA device " + std::to_string(device) + " (" + cudaGetErrorString(e) + ")";
    return false;
  }
  const std::string name = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
  // Also creates the context, so that cost lands here, beside decoding.
  if ((e = cudaSetDevice(device)) != cudaSuccess || (e = check_kernel_image()) != cudaSuccess) {
    *detail = name + " cannot run this build's kernels (" + cudaGetErrorString(e) + ")";
    return false;
  }
  *detail = name;
  return true;
}

bool cuda_usable(std::string* detail) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorInsufficientDriver) {
    *detail = "no usable GPU: no NVIDIA driver, or one older than this build's CUDA runtime";
    return false;
  }
  if (e != cudaSuccess || count == 0) {
    *detail = std::string("no usable GPU (") + (e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA device found") + ")";
    return false;
  }
  return cuda_device_usable(0, detail);
}

void run_cuda(Image& img, const Pipeline& pipeline, RunTimes* times) {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "asking which GPU is current");
  CudaLane(device, pipeline, false).run(img, times);
}

std::string open_runtime_compiler() {
  try {
    nvrtc("--map");
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "";
}

}  // namespace gpuimg
