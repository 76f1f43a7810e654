#pragma once
// Mean SSIM of each channel (kernels/metrics.hpp defines it), on either backend.
#include <vector>

#include "image.hpp"

namespace gpuimg {

// a and b have the same size, channels and depth. One value per channel.
std::vector<double> ssim_cpu(const Image& a, const Image& b);
// Throws DeviceError naming the CUDA call that failed.
std::vector<double> ssim_cuda(const Image& a, const Image& b);

}  // namespace gpuimg
