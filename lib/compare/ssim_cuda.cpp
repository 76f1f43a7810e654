// SSIM on the GPU: both images uploaded, one launch, the per-block partial
// sums downloaded and added on the host in double. Every CUDA call is
// checked; a failure becomes a DeviceError saying what was being done.
#include <cuda_runtime.h>

#include "cuda_resources.hpp"
#include "ssim.hpp"
#include "ssim_launch.hpp"

namespace gpuimg {
std::vector<double> ssim_cuda(const Image& a, const Image& b) {
  const std::size_t bytes = a.data.size();
  const long long pixels = static_cast<long long>(a.pixel_count());
  const int blocks = ssim_blocks(pixels);
  std::vector<double> partial(static_cast<std::size_t>(blocks) * a.channels);
  DeviceBuffer da(bytes, "the expected image"), db(bytes, "the actual image");
  DeviceBuffer dp(partial.size() * sizeof(double), "SSIM sums");
  check_cuda(cudaMemcpy(da.get(), a.data.data(), bytes, cudaMemcpyHostToDevice), "uploading the expected image");
  check_cuda(cudaMemcpy(db.get(), b.data.data(), bytes, cudaMemcpyHostToDevice), "uploading the actual image");
  check_cuda(launch_ssim_sums(da.get(), db.get(), a.width, a.height, a.channels, bytes_per_sample(a.depth),
                         ssim_window(max_sample(a.depth)), static_cast<double*>(dp.get()), nullptr),
        "launching the SSIM kernel");
  check_cuda(cudaMemcpy(partial.data(), dp.get(), partial.size() * sizeof(double), cudaMemcpyDeviceToHost),
        "computing SSIM");
  std::vector<double> means(a.channels, 0.0);
  for (int blk = 0; blk < blocks; ++blk)
    for (int c = 0; c < a.channels; ++c) means[c] += partial[static_cast<std::size_t>(blk) * a.channels + c];
  for (double& m : means) m /= static_cast<double>(pixels);
  return means;
}

}  // namespace gpuimg
