// Measures what each op costs the CPU backend per sample, the figure each op
// header declares as cpu_cost and --device auto adds up
// (lib/device_choice.hpp). For every registered op at the ends of its
// parameters' ranges (and blur's common radii), 8 and 16 bits, 1, 3 and 4
// channels: run_cpu with that one stage as the CLI calls it (scratch buffer
// and copy-back included), the median of the runs, on one thread and on
// every hardware thread, beside the model's estimate for the latter.
// Usage: gpuimg_cpu_cost_bench [repetitions] [width height]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backend.hpp"
#include "device_choice.hpp"
#include "example_values.hpp"
#include "pipeline.hpp"
#include "random_image.hpp"

namespace {

using namespace gpuimg;
using test::example_values;

double median_ms(const Image& in, const Pipeline& pipeline, int threads, int reps) {
  std::vector<double> ms;
  for (int i = 0; i <= reps; ++i) {
    Image img = in;
    const auto start = std::chrono::steady_clock::now();
    run_cpu(img, pipeline, nullptr, threads);
    if (i > 0) ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::string text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Each parameter at both ends of its range, the others at their minimum;
// an integer parameter also in between, where its op's range allows: radii
// on both sides of each change of the CPU's arithmetic (blur,
// lib/reciprocal_mean.hpp: float up to R = 5 at 16 bits and 81 at 8;
// 32-bit sums up to R = 90 and 1450; median, Median::kMaxCpuNetworkRadius:
// networks up to 3, histograms from 4). An op whose parameters are not all
// plain numbers (a region, a size, a name, values joined in one word) runs
// its --help example.
std::vector<Pipeline> stages() {
  std::vector<Pipeline> out;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    if (Op::params.empty()) out.push_back({parse_stage(Op::name, {})});
    // Values joined in one word, a range that excludes its minimum or values
    // that must agree (check()) would not parse from the ends of each range.
    const bool numbers = !HasCheck<Op>::value &&
                         std::all_of(Op::params.begin(), Op::params.end(), [](const ParamSpec& p) {
                           return (p.type == ParamType::integer || p.type == ParamType::real) && !p.joined &&
                                  !p.min_excluded;
                         });
    if (!numbers) {
      out.push_back({parse_stage(Op::name, example_values(Op::example))});
      return;
    }
    for (std::size_t i = 0; i < Op::params.size(); ++i) {
      const ParamSpec& spec = Op::params[i];
      std::vector<double> values = {spec.min, spec.max};
      if (spec.type == ParamType::integer)
        for (double v : {3, 4, 8, 64, 128, 2048})
          if (v > spec.min && v < spec.max) values.insert(values.end() - 1, v);
      for (double v : values) {
        std::vector<std::string> args;
        for (std::size_t k = 0; k < Op::params.size(); ++k) args.push_back(text(k == i ? v : Op::params[k].min));
        out.push_back({parse_stage(Op::name, args)});
      }
    }
  });
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  const int width = argc > 3 ? std::atoi(argv[2]) : 3840;
  const int height = argc > 3 ? std::atoi(argv[3]) : 2160;
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::printf("%dx%d, %d hardware threads, median of %d runs after one warm-up\n", width, height, hw, reps);
  std::printf("%-18s %-5s %3s %12s %9s %10s %14s %12s %8s\n", "stage", "depth", "ch", "1 thread ns", "cpu_cost",
              "all ms", "all ns*thread", "estimate ms", "est/all");
  int over = 0;  // rows whose one-thread time exceeds the declared cost
  for (const Pipeline& pipeline : stages()) {
    for (const Depth depth : {Depth::U8, Depth::U16}) {
      for (const int channels : {1, 3, 4}) {
        const Image in = test::random_image(width, height, channels, depth, 7);
        const double samples = double(width) * height * channels;
        const double one = median_ms(in, pipeline, 1, reps), all = median_ms(in, pipeline, hw, reps);
        const ImageShape shape{std::uint64_t(width), std::uint64_t(height), channels, depth};
        const double declared = estimate_cpu_ms(pipeline, shape, 1) * 1e6 / samples;
        const double estimate = estimate_cpu_ms(pipeline, shape, hw);
        const double one_ns = one * 1e6 / samples;
        over += one_ns > declared;
        std::printf("%-18s %-5s %3d %12.2f %9.2f %10.2f %14.2f %12.2f %8.2f%s\n", describe(pipeline[0]).c_str(),
                    depth == Depth::U8 ? "8" : "16", channels, one_ns, declared, all, all * 1e6 * hw / samples,
                    estimate, estimate / all, one_ns > declared ? "  over cpu_cost" : "");
        std::fflush(stdout);
      }
    }
  }
  std::printf("\n%d rows took longer on one thread than their op's cpu_cost declares\n", over);
  return 0;
}
