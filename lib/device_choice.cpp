#include "device_choice.hpp"

#include <algorithm>
#include <cstdio>

#include "plan.hpp"

namespace gpuimg {
namespace {

std::string format_ms(double ms) {
  if (ms < 0.1) return "under 0.1 ms";
  char text[32];
  std::snprintf(text, sizeof text, ms < 10 ? "%.1f ms" : "%.0f ms", ms);
  return text;
}

}  // namespace

double estimate_cpu_ms(const Pipeline& pipeline, const ImageShape& shape, int threads) {
  const int counted = std::clamp(threads, 1, kCpuScalingThreads);
  double ns = 0;
  for (const OpRecord& rec : plan_pipeline(pipeline, shape_of(shape)))
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      const CpuCost cost = Op::cpu_cost(rec.get<Op>());
      const double samples = double(std::max(rec.in.pixels() * rec.in.channels, rec.out.pixels() * rec.out.channels));
      ns += samples * (shape.depth == Depth::U8 ? cost.ns_per_sample_8bit : cost.ns_per_sample_16bit);
    });
  return ns / counted / 1e6;
}

AutoDevice choose_auto_device(const Pipeline& pipeline, const std::optional<ImageShape>& shape, int threads) {
  if (!shape) return {true, ""};
  const double ms = estimate_cpu_ms(pipeline, *shape, threads);
  const std::string cuda = format_ms(kCudaStartExitMs) + ")";
  if (ms < kCudaStartExitMs)
    return {false, "auto: the pipeline is estimated at " + format_ms(ms) +
                       " on the CPU, under CUDA's start-up and exit (about " + cuda + ", so CUDA was not started"};
  return {true, "auto: the pipeline is estimated at " + format_ms(ms) + " on the CPU, over CUDA's start-up and exit (about " +
                    cuda};
}

}  // namespace gpuimg
