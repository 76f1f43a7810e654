#pragma once
// What every host file that talks to the GPU shares: one way to check a CUDA
// call, turning a failure into a DeviceError that says what was being done,
// and owners for device memory, pinned host memory, streams and events that
// free them on every path out.
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

inline std::string mib_text(std::size_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB"; }

// Where a GrowingBuffer's memory lives: how to get it, free it and name it.
struct OnDevice {
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
  static cudaError_t free(void* p) { return cudaFree(p); }
  static constexpr const char* kind = "GPU memory";
};
// Page-locked host memory, which the copy engines read and write while the
// host thread goes on (a copy from pageable memory goes through the driver's
// own staging, synchronously).
struct Pinned {
  static cudaError_t allocate(void** p, std::size_t bytes) { return cudaHostAlloc(p, bytes, cudaHostAllocDefault); }
  static cudaError_t free(void* p) { return cudaFreeHost(p); }
  static constexpr const char* kind = "pinned host memory";
};

// Memory that can grow: a batch keeps one set of buffers for all its images
// and only reallocates for an image larger than any before.
template <class Where> class GrowingBuffer {
 public:
  GrowingBuffer() = default;
  // `what` names the contents in the message of a failed allocation.
  GrowingBuffer(std::size_t bytes, const std::string& what) { reserve(bytes, what); }
  ~GrowingBuffer() { Where::free(ptr_); }
  GrowingBuffer(const GrowingBuffer&) = delete;
  GrowingBuffer& operator=(const GrowingBuffer&) = delete;

  // At least `bytes`; the contents are not kept.
  void reserve(std::size_t bytes, const std::string& what) {
    if (bytes <= size_) return;
    check_cuda(Where::free(ptr_), std::string("freeing ") + Where::kind + " for " + what);
    ptr_ = nullptr;
    size_ = 0;
    check_cuda(Where::allocate(&ptr_, bytes), "allocating " + mib_text(bytes) + " of " + Where::kind + " for " + what);
    size_ = bytes;
  }
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  std::size_t size_ = 0;
};

using DeviceBuffer = GrowingBuffer<OnDevice>;
using PinnedBuffer = GrowingBuffer<Pinned>;

class Stream {
 public:
  Stream() { check_cuda(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "creating a stream"); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags) { check_cuda(cudaEventCreateWithFlags(&e_, flags), "creating an event"); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace gpuimg
