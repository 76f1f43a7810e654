// The CUDA backend: one upload, every stage on one stream between two device
// buffers, one download. Every CUDA call is checked; a failure becomes a
// DeviceError naming what was being done, and no image is returned.
#include <algorithm>
#include <string>
#include <utility>

#include <cuda_runtime.h>

#include "backend.hpp"
#include "cuda_launch.hpp"
#include "cuda_resources.hpp"
#include "error.hpp"

namespace gpuimg {
namespace {

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

// Events between the steps of a run; each interval is one line of -v.
class Timeline {
 public:
  Timeline(std::size_t marks, cudaStream_t s) : events_(marks), stream_(s) {
    for (auto& e : events_) check_cuda(cudaEventCreate(&e), "creating an event");
  }
  ~Timeline() {
    for (auto e : events_) cudaEventDestroy(e);
  }
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;
  void mark() { check_cuda(cudaEventRecord(events_.at(next_++), stream_), "recording an event"); }
  double ms(std::size_t from) const {
    float t = 0;
    check_cuda(cudaEventElapsedTime(&t, events_.at(from), events_.at(from + 1)), "reading an event");
    return t;
  }

 private:
  std::vector<cudaEvent_t> events_;
  cudaStream_t stream_;
  std::size_t next_ = 0;
};

}  // namespace

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
  cudaDeviceProp prop{};
  if ((e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess) {
    *detail = std::string("cannot query CUDA device 0 (") + cudaGetErrorString(e) + ")";
    return false;
  }
  const std::string name = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ")";
  // Also creates the context, so that cost lands here, beside decoding.
  if ((e = check_kernel_image()) != cudaSuccess) {
    *detail = name + " cannot run this build's kernels (" + cudaGetErrorString(e) + ")";
    return false;
  }
  *detail = name;
  return true;
}

void run_cuda(Image& img, const Pipeline& pipeline, RunTimes* times) {
  const std::size_t bytes = img.data.size();
  const int stages = static_cast<int>(pipeline.size());
  Stream stream;
  DeviceBuffer ping(bytes, "the image"), pong(bytes, "the image"),
      scratch(scratch_bytes(pipeline, img.width, img.height, img.channels), "stage scratch"), ops(sizeof(OpRecord) * std::max(1, stages), "the pipeline");
  Timeline timeline(stages + 3, stream.get());

  timeline.mark();
  check_cuda(cudaMemcpyAsync(ops.get(), pipeline.data(), sizeof(OpRecord) * stages, cudaMemcpyHostToDevice, stream.get()),
        "uploading the pipeline");
  check_cuda(cudaMemcpyAsync(ping.get(), img.data.data(), bytes, cudaMemcpyHostToDevice, stream.get()),
        "uploading the image");
  timeline.mark();

  void* src = ping.get();
  void* dst = pong.get();
  for (int i = 0; i < stages; ++i) {
    const CudaStage s{src, dst, img.width, img.height, img.channels, bytes_per_sample(img.depth), scratch.get(),
                      stream.get()};
    check_cuda(launch_stage(pipeline[i], i, s, static_cast<const OpRecord*>(ops.get())),
          "launching stage " + std::to_string(i + 1) + " (" + describe(pipeline[i]) + ")");
    std::swap(src, dst);
    timeline.mark();
  }

  check_cuda(cudaMemcpyAsync(img.data.data(), src, bytes, cudaMemcpyDeviceToHost, stream.get()), "downloading the image");
  timeline.mark();
  check_cuda(cudaStreamSynchronize(stream.get()), "running the pipeline");

  if (times) {
    times->upload_ms = timeline.ms(0);
    for (int i = 0; i < stages; ++i) times->stage_ms.push_back(timeline.ms(1 + i));
    times->download_ms = timeline.ms(1 + stages);
  }
}

}  // namespace gpuimg
