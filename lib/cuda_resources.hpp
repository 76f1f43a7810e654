#pragma once
// What every host file that talks to the GPU shares: one way to check a CUDA
// call, turning a failure into a DeviceError that says what was being done,
// and an owner for device memory that frees it on every path out.
#include <cstddef>
#include <string>

#include <cuda_runtime.h>

#include "error.hpp"

namespace gpuimg {

inline void check_cuda(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  throw DeviceError(std::string("CUDA error while ") + what + ": " + cudaGetErrorString(e) + " (" +
                    cudaGetErrorName(e) + ")");
}

class DeviceBuffer {
 public:
  // `what` names the contents in the message of a failed allocation.
  DeviceBuffer(std::size_t bytes, const std::string& what) {
    if (bytes)
      check_cuda(cudaMalloc(&ptr_, bytes),
                 "allocating " + std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB of GPU memory for " + what);
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

}  // namespace gpuimg
