// Times the CPU backend's blur against cv::blur (BORDER_REPLICATE) on the
// same image, both on every core (OpenCV at its default thread count), and
// prints one table row per (type, radius) with the ratio. gpuimg's time is
// run_cpu as the CLI calls it, scratch allocation included; OpenCV's is
// cv::blur into a fresh output Mat, its allocation included too. The two
// run alternately, and each row gives the median of each.
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

struct Timed {
  std::vector<double> ms;
  double median() {
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

// Times a and b alternately, `reps` runs each after one warm-up of each
// (first-touch page faults, OpenCV's thread pool), so that both meet the
// same load from anything else on the machine; setup() runs before each
// run, outside the timing.
template <class SetupA, class RunA, class SetupB, class RunB>
void time_alternately(int reps, SetupA setup_a, RunA run_a, SetupB setup_b, RunB run_b, Timed& a, Timed& b) {
  auto once = [](auto& setup, auto& run, Timed& t, bool keep) {
    setup();
    const auto start = Clock::now();
    run();
    if (keep) t.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  };
  for (int i = 0; i <= reps; ++i) {
    once(setup_a, run_a, a, i > 0);
    once(setup_b, run_b, b, i > 0);
  }
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
      cv::Mat dst;
      const int k = 2 * radius + 1;
      Timed ours, theirs;
      time_alternately(
          reps, [&] { out = in; }, [&] { run_cpu(out, pipeline); }, [&] { dst = cv::Mat(); },
          [&] { cv::blur(src, dst, cv::Size(k, k), cv::Point(-1, -1), cv::BORDER_REPLICATE); }, ours, theirs);
      const double gpuimg_ms = ours.median(), cv_ms = theirs.median();
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
