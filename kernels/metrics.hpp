#pragma once
// SSIM's per-window statistics (Wang, Bovik, Sheikh, Simoncelli 2004), the
// one piece of compare's math that both backends run: the CPU loop in
// lib/compare/ssim_cpu.cpp and the kernel in metrics.cu call ssim_at(), so
// their per-pixel values are the same IEEE operations and only the order of
// the final sums differs (well under 1e-12 of the mean).
//
// The window is the paper's: an 11x11 Gaussian, sigma 1.5, normalised to a
// sum of 1, centred on every pixel; samples outside the image replicate the
// edge (gpuimg's border rule), so every pixel has a value and a 1x1 image
// has an SSIM. C1 = (0.01 L)^2, C2 = (0.03 L)^2, L = 255 or 65535.
#include <cmath>

#include "view.hpp"

namespace gpuimg {

constexpr int kSsimRadius = 5;  // 11x11
constexpr double kSsimSigma = 1.5;

// The separable 1-D weights; the 2-D weight at (i, j) is g[i] * g[j].
struct SsimWindow {
  double g[2 * kSsimRadius + 1];
  double c1, c2;
};

// Host only: exp() runs once here, never on the device, so both backends
// read the same weights.
inline SsimWindow ssim_window(int max_value) {
  SsimWindow w{};
  double sum = 0;
  for (int i = -kSsimRadius; i <= kSsimRadius; ++i) {
    w.g[i + kSsimRadius] = std::exp(-(i * i) / (2 * kSsimSigma * kSsimSigma));
    sum += w.g[i + kSsimRadius];
  }
  for (double& v : w.g) v /= sum;
  w.c1 = (0.01 * max_value) * (0.01 * max_value);
  w.c2 = (0.03 * max_value) * (0.03 * max_value);
  return w;
}

// SSIM of channel c in the window centred on (x, y).
template <class T>
GPUIMG_HD double ssim_at(const ImageView<T>& a, const ImageView<T>& b, int x, int y, int c, const SsimWindow& w) {
  double ma = 0, mb = 0, aa = 0, bb = 0, ab = 0;
  for (int j = -kSsimRadius; j <= kSsimRadius; ++j) {
    const double gy = w.g[j + kSsimRadius];
    for (int i = -kSsimRadius; i <= kSsimRadius; ++i) {
      const double wt = gy * w.g[i + kSsimRadius];
      const double va = a.at(x + i, y + j, c), vb = b.at(x + i, y + j, c);
      ma += wt * va;
      mb += wt * vb;
      aa += wt * (va * va);
      bb += wt * (vb * vb);
      ab += wt * (va * vb);
    }
  }
  const double var_a = aa - ma * ma, var_b = bb - mb * mb, cov = ab - ma * mb;
  return ((2 * ma * mb + w.c1) * (2 * cov + w.c2)) / ((ma * ma + mb * mb + w.c1) * (var_a + var_b + w.c2));
}

}  // namespace gpuimg
