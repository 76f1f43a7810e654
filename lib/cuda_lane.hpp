#pragma once
// One image at a time through a pipeline on one GPU, with a stream, device
// buffers and the uploaded stage records kept from image to image. A batch
// drives several lanes per GPU from their own threads, so that one lane's
// upload, another's kernels and a third's download overlap.
#include <memory>

#include "backend.hpp"

namespace gpuimg {

class CudaLane {
 public:
  // staging: copy through a pinned host buffer, so the copies run at full
  // speed and asynchronously; worth it for a batch, where the buffer is
  // reused, not for one image, where pinning costs more than it saves.
  // Throws DeviceError (always, in a build without CUDA).
  CudaLane(int device, const Pipeline& pipeline, bool staging);
  ~CudaLane();
  CudaLane(const CudaLane&) = delete;
  CudaLane& operator=(const CudaLane&) = delete;

  // Runs every stage on `img`, in place; may be called from any thread, but
  // from one at a time. Buffers grow to the largest image seen. Throws
  // DeviceError naming the step that failed.
  void run(Image& img, RunTimes* times = nullptr);

  int device() const { return device_; }

 private:
  struct State;
  int device_;
  std::unique_ptr<State> state_;
};

}  // namespace gpuimg
