// The median on the GPU: the path for the stage's depth and radius.
#include "median_paths.hpp"

namespace gpuimg {

int Median::launch(const CudaStage& s, const Params& p) {
  if (fits_median_words(s, p.radius)) return launch_median_words(s);
  if (p.radius <= kMaxGpuNetworkRadius) return launch_median_networks(s, p.radius);
  return s.in.bytes == 1 ? launch_median_histogram(s, p.radius) : launch_median_radix(s, p.radius);
}

}  // namespace gpuimg
