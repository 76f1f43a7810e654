// The OpenCV C++ peer of `gpuimg IN --blur R --invert OUT`: cv::imread
// (IMREAD_UNCHANGED), cv::blur with a (2R+1)x(2R+1) kernel and
// BORDER_REPLICATE, cv::bitwise_not (255 - v for 8-bit samples), cv::imwrite:
// PNG at OpenCV's defaults; JPEG at gpuimg's settings (quality 95, 4:4:4,
// optimised Huffman tables), except that OpenCV before 4.7 (Debian 12 has
// 4.6) cannot choose 4:4:4 and writes 4:2:0, half the chroma samples to
// transform and code. Every core (OpenCV's default). Prints
// `split NAME MS` lines on stderr for scripts/bench/e2e.py.
// Usage: opencv_blur_invert IN OUT R
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: opencv_blur_invert IN OUT R\n");
    return 2;
  }
  using Clock = std::chrono::steady_clock;
  const std::string out = argv[2];
  const int k = 2 * std::atoi(argv[3]) + 1;
  const auto t0 = Clock::now();
  cv::Mat img = cv::imread(argv[1], cv::IMREAD_UNCHANGED);
  if (img.empty()) return 1;
  const auto t1 = Clock::now();
  cv::blur(img, img, cv::Size(k, k), cv::Point(-1, -1), cv::BORDER_REPLICATE);
  const auto t2 = Clock::now();
  cv::bitwise_not(img, img);
  const auto t3 = Clock::now();
  std::vector<int> params;
  const std::string ext = out.substr(out.find_last_of('.') + 1);
  if (ext == "jpg" || ext == "jpeg") {
    params = {cv::IMWRITE_JPEG_QUALITY, 95, cv::IMWRITE_JPEG_OPTIMIZE, 1};
#if CV_VERSION_MAJOR > 4 || (CV_VERSION_MAJOR == 4 && CV_VERSION_MINOR >= 7)
    params.insert(params.end(), {cv::IMWRITE_JPEG_SAMPLING_FACTOR, cv::IMWRITE_JPEG_SAMPLING_FACTOR_444});
#endif
  }
  if (!cv::imwrite(out, img, params)) return 1;
  const auto t4 = Clock::now();
  auto ms = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::fprintf(stderr, "split decode %.2f\nsplit blur %.2f\nsplit invert %.2f\nsplit encode %.2f\n", ms(t0, t1),
               ms(t1, t2), ms(t2, t3), ms(t3, t4));
  return 0;
}
