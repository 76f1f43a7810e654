#pragma once
// OpenCV imgproc as an oracle, where it computes the same thing as an op.
// Inputs go to CV_64F first: there every sum here is exact, whereas OpenCV's
// own 16-bit box filter overflows a 32-bit accumulator at large radii.
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "ops/convolve.hpp"
#include "random_image.hpp"

namespace gpuimg::test {

inline cv::Mat to_mat64(const Image& img) {
  const int type = CV_MAKETYPE(img.depth == Depth::U8 ? CV_8U : CV_16U, img.channels);
  const cv::Mat view(img.height, img.width, type, const_cast<std::uint8_t*>(img.data.data()));
  cv::Mat out;
  view.convertTo(out, CV_64F);
  return out;
}

// Window sums of cv::boxFilter (unnormalised), rounded as the README pins.
inline Image opencv_blur(const Image& in, int radius) {
  cv::Mat sums;
  const int k = 2 * radius + 1;
  cv::boxFilter(to_mat64(in), sums, CV_64F, cv::Size(k, k), cv::Point(-1, -1), false, cv::BORDER_REPLICATE);
  Image out = in;
  const unsigned long long n = 1ULL * k * k;
  const double* s = sums.ptr<double>();
  for (std::size_t i = 0; i < in.pixel_count() * in.channels; ++i) {
    const unsigned long long v = (static_cast<unsigned long long>(s[i]) + n / 2) / n;
    if (in.depth == Depth::U8)
      out.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
    else
      out.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
  }
  return out;
}

// Whether cv::medianBlur takes this input at ksize 2R + 1: 8-bit images of
// 1, 3 or 4 channels at any odd size, 16-bit ones only at 3 and 5.
inline bool opencv_has_median(const Image& in, int radius) {
  return in.channels != 2 && (in.depth == Depth::U8 || radius <= 2);
}

// cv::medianBlur, whose border is replicated as gpuimg's is.
inline Image opencv_median(const Image& in, int radius) {
  const int type = CV_MAKETYPE(in.depth == Depth::U8 ? CV_8U : CV_16U, in.channels);
  const cv::Mat view(in.height, in.width, type, const_cast<std::uint8_t*>(in.data.data()));
  Image out = in;
  cv::Mat dst(in.height, in.width, type, out.data.data());
  cv::medianBlur(view, dst, 2 * radius + 1);
  return out;
}

// The sharpened values before rounding, clamped to the sample range.
inline cv::Mat opencv_sharpen_unrounded(const Image& in, double f) {
  const cv::Mat kernel = (cv::Mat_<double>(3, 3) << 0, -f, 0, -f, 1 + 4 * f, -f, 0, -f, 0);
  cv::Mat out;
  cv::filter2D(to_mat64(in), out, CV_64F, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
  cv::min(cv::max(out, 0.0), double(max_sample(in.depth)), out);
  return out;
}

// A convolution's values before rounding: cv::filter2D (a correlation, as
// the op's) with the weights as written, in double, divided by their sum
// where it is not 0.
inline cv::Mat opencv_convolve_unrounded(const Image& in, const std::vector<double>& weights, int kw, int kh) {
  const cv::Mat kernel(kh, kw, CV_64F, const_cast<double*>(weights.data()));
  cv::Mat out;
  cv::filter2D(to_mat64(in), out, CV_64F, kernel, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
  const double sum = cv::sum(kernel)[0];
  if (std::abs(sum) >= Convolve::kZeroSum * cv::norm(kernel, cv::NORM_L1)) out /= sum;  // else weights that cancel
  return out;
}

// The Gaussian before rounding, by cv::sepFilter2D with the double weights
// exp(-i^2 / 2S^2) / sum, i in [-ceil(3S), ceil(3S)], edges replicated:
// cv::getGaussianKernel picks its own size and, for small ones, fixed taps.
inline cv::Mat opencv_gaussian_unrounded(const Image& in, double sigma) {
  const int r = static_cast<int>(std::ceil(3 * sigma));
  cv::Mat k(2 * r + 1, 1, CV_64F);
  for (int i = -r; i <= r; ++i) k.at<double>(i + r) = (i == 0 ? 1 : std::exp(-double(i) * i / (2 * sigma * sigma)));
  k /= cv::sum(k)[0];
  cv::Mat out;
  cv::sepFilter2D(to_mat64(in), out, CV_64F, k, k, cv::Point(-1, -1), 0, cv::BORDER_REPLICATE);
  return out;
}

}  // namespace gpuimg::test
