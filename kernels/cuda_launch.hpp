#pragma once
// Host-side entry points of the CUDA kernels. Each enqueues its work on the
// stage's stream and returns the launch's error code; the caller turns a
// failure into a DeviceError naming the stage.
#include <cstddef>

#include <cuda_runtime.h>

#include "registry.hpp"

namespace gpuimg {

struct CudaStage {
  const void* src;
  void* dst;
  int width, height, channels;
  int bytes_per_sample;  // 1 or 2
  void* scratch;         // at least the largest scratch_bytes() of the pipeline
  cudaStream_t stream;
};

// Runs stage `stage` of the records at `device_ops` through the dispatch kernel.
cudaError_t launch_stencil(const CudaStage& s, const OpRecord* device_ops, int stage, int halo);

// Ops of Kind::custom: one overload each, found by its tag.
cudaError_t launch_custom(OpTag<Blur>, const CudaStage& s, const Blur::Params& p);

// cudaSuccess when this binary holds code the current device can run.
cudaError_t check_kernel_image();

}  // namespace gpuimg
