// Times the CPU backend's blur against cv::blur (BORDER_REPLICATE) on the
// same image, both on every core (OpenCV at its default thread count), and
// prints one table row per (type, radius) with the ratio. gpuimg's time is
// run_cpu as the CLI calls it, scratch allocation included; OpenCV's is
// cv::blur into a fresh output Mat, its allocation included too.
// Usage: gpuimg_cpu_bench [repetitions] [width height]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "backend.hpp"
#include "pipeline.hpp"
#include "random_image.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Median of `reps` timed runs after one warm-up (first-touch page faults,
// OpenCV's thread pool); setup() runs before each, outside the timing.
template <class Setup, class Run> double median_ms(int reps, Setup setup, Run run) {
  std::vector<double> t;
  for (int i = 0; i <= reps; ++i) {
    setup();
    const auto start = Clock::now();
    run();
    if (i == 0) continue;
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuimg;
  const int reps = argc > 1 ? std::atoi(argv[1]) : 11;
  const int width = argc > 3 ? std::atoi(argv[2]) : 3840;
  const int height = argc > 3 ? std::atoi(argv[3]) : 2160;
  std::printf("%u hardware threads, OpenCV %s with %d threads\n", std::thread::hardware_concurrency(), CV_VERSION,
              cv::getNumThreads());
  std::printf("%-7s %-10s %6s %11s %11s %8s %6s\n", "type", "size", "radius", "gpuimg ms", "cv::blur ms", "ratio",
              "equal");

  struct Type {
    const char* name;
    int channels;
    Depth depth;
  };
  for (const Type& type : {Type{"rgb8", 3, Depth::U8}, Type{"gray16", 1, Depth::U16}}) {
    const Image in = test::random_image(width, height, type.channels, type.depth, 1);
    const cv::Mat src(height, width, CV_MAKETYPE(type.depth == Depth::U8 ? CV_8U : CV_16U, type.channels),
                      const_cast<std::uint8_t*>(in.data.data()));
    for (int radius : {1, 3, 8, 25, 64, 256}) {
      const Pipeline pipeline = {parse_stage("blur", {std::to_string(radius)})};
      Image out;
      const double gpuimg_ms = median_ms(reps, [&] { out = in; }, [&] { run_cpu(out, pipeline); });
      cv::Mat dst;
      const int k = 2 * radius + 1;
      const double cv_ms = median_ms(
          reps, [&] { dst = cv::Mat(); },
          [&] { cv::blur(src, dst, cv::Size(k, k), cv::Point(-1, -1), cv::BORDER_REPLICATE); });
      // OpenCV rounds its float mean to nearest even and its 16-bit sums
      // overflow 32 bits at large radii, so equality is reported, not required.
      const bool equal = std::equal(out.data.begin(), out.data.end(), dst.data);
      std::printf("%-7s %-10s %6d %11.2f %11.2f %8.2f %6s\n", type.name,
                  (std::to_string(width) + "x" + std::to_string(height)).c_str(), radius, gpuimg_ms, cv_ms,
                  gpuimg_ms / cv_ms, equal ? "yes" : "no");
    }
  }
  return 0;
}
