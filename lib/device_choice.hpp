#pragma once
// --device auto for one image: whether its pipeline is worth starting CUDA.
// Starting CUDA (cuInit and a context) and tearing it down at exit cost a
// process far more than a cheap pipeline takes on the CPU: for one 3840x2160
// image, blur 3 and invert, the whole run took 611 ms with CUDA and 275 ms
// with --device cpu on the H200 machine (docs/PERFORMANCE.md, e2e-device).
// So the CPU's time is estimated from the header's dimensions first, and
// CUDA is started only when that estimate exceeds what CUDA costs.
#include <optional>
#include <string>

#include "pipeline.hpp"
#include "probe.hpp"

namespace gpuimg {

// What CUDA adds to a one-image run, the lower end of what was measured:
// start-up 215 ms (H100: cuInit 100, context 115) to 430 ms (H200: 325 and
// 105), of which decoding hides its own length, plus 110 to 130 ms of
// teardown at exit (docs/PERFORMANCE.md, e2e-device and e2e-device-h100).
constexpr double kCudaStartExitMs = 250;

// The CPU backend's stages stop scaling near this many threads, memory
// bandwidth bounding them: blur 3 at 3840x2160 RGB took 33 ms on 2 threads
// here, 3.8 ms on 16 (H100 machine), 5.3 ms on 32 (H200 machine). Counting
// no more threads keeps the estimate on the slow side, where a wrong guess
// costs only what CUDA always cost.
constexpr int kCpuScalingThreads = 8;

// The CPU backend's time for `pipeline` on an image of `shape`, in ms: each
// stage's cpu_cost (its op header) times the samples, shared by `threads`.
double estimate_cpu_ms(const Pipeline& pipeline, const ImageShape& shape, int threads);

struct AutoDevice {
  bool start_cuda;     // false: the CPU, with CUDA never initialised
  std::string reason;  // for -v; empty where the shape was unknown
};

// start_cuda unless the shape is known and the estimate is under
// kCudaStartExitMs. A GPU may still turn out unusable (select_backend).
AutoDevice choose_auto_device(const Pipeline& pipeline, const std::optional<ImageShape>& shape, int threads);

}  // namespace gpuimg
