// SSIM on every core: each band of rows sums its pixels' values in double.
// The 121-tap window costs about 4 CPU-seconds per RGB megapixel (measured
// on the 2-core build machine); --device cuda is the way for large images.
#include <cstdint>
#include <mutex>

#include "metrics.hpp"
#include "parallel.hpp"
#include "ssim.hpp"

namespace gpuimg {
namespace {

template <class T> std::vector<double> ssim_means(const Image& a, const Image& b) {
  const ImageView<T> va{a.samples<T>(), a.width, a.height, a.channels};
  const ImageView<T> vb{b.samples<T>(), b.width, b.height, b.channels};
  const SsimWindow window = ssim_window(max_sample(a.depth));
  std::vector<double> sums(a.channels, 0.0);
  std::mutex lock;
  parallel_bands(a.height, 1, [&](int y0, int y1) {
    std::vector<double> own(a.channels, 0.0);
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < a.width; ++x)
        for (int c = 0; c < a.channels; ++c) own[c] += ssim_at(va, vb, x, y, c, window);
    const std::lock_guard<std::mutex> hold(lock);
    for (int c = 0; c < a.channels; ++c) sums[c] += own[c];
  });
  for (double& s : sums) s /= static_cast<double>(a.pixel_count());
  return sums;
}

}  // namespace

std::vector<double> ssim_cpu(const Image& a, const Image& b) {
  return a.depth == Depth::U8 ? ssim_means<std::uint8_t>(a, b) : ssim_means<std::uint16_t>(a, b);
}

}  // namespace gpuimg
