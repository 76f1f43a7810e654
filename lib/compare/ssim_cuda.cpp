// SSIM on the GPU: both images uploaded, one launch, the per-block partial
// sums downloaded and added on the host in double. Every CUDA call is
// checked; a failure becomes a DeviceError saying what was being done.
#include <string>

#include <cuda_runtime.h>

#include "error.hpp"
#include "ssim.hpp"
#include "ssim_launch.hpp"

namespace gpuimg {
namespace {

void check(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  throw DeviceError(std::string("CUDA error while ") + what + ": " + cudaGetErrorString(e) + " (" +
                    cudaGetErrorName(e) + ")");
}

class DeviceBuffer {
 public:
  DeviceBuffer(std::size_t bytes, const char* what) {
    check(cudaMalloc(&ptr_, bytes ? bytes : 1), std::string("allocating GPU memory for ") + what);
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

}  // namespace

std::vector<double> ssim_cuda(const Image& a, const Image& b) {
  const std::size_t bytes = a.data.size();
  const long long pixels = static_cast<long long>(a.pixel_count());
  const int blocks = ssim_blocks(pixels);
  std::vector<double> partial(static_cast<std::size_t>(blocks) * a.channels);
  DeviceBuffer da(bytes, "the expected image"), db(bytes, "the actual image");
  DeviceBuffer dp(partial.size() * sizeof(double), "SSIM sums");
  check(cudaMemcpy(da.get(), a.data.data(), bytes, cudaMemcpyHostToDevice), "uploading the expected image");
  check(cudaMemcpy(db.get(), b.data.data(), bytes, cudaMemcpyHostToDevice), "uploading the actual image");
  check(launch_ssim_sums(da.get(), db.get(), a.width, a.height, a.channels, bytes_per_sample(a.depth),
                         ssim_window(max_sample(a.depth)), static_cast<double*>(dp.get()), nullptr),
        "launching the SSIM kernel");
  check(cudaMemcpy(partial.data(), dp.get(), partial.size() * sizeof(double), cudaMemcpyDeviceToHost),
        "computing SSIM");
  std::vector<double> means(a.channels, 0.0);
  for (int blk = 0; blk < blocks; ++blk)
    for (int c = 0; c < a.channels; ++c) means[c] += partial[static_cast<std::size_t>(blk) * a.channels + c];
  for (double& m : means) m /= static_cast<double>(pixels);
  return means;
}

}  // namespace gpuimg
