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

// What CUDA adds to a one-image run: start-up 215 ms (H100: cuInit 100,
// context 115) to 430 ms (H200: 325 and 105), less what decoding beside it
// hides, plus 110 to 130 ms of teardown at exit (docs/PERFORMANCE.md,
// e2e-device and auto-device): from about 110 ms, where decoding hides
// the whole start-up, to about 550 ms for a small image on the H200
// machine. At the low end, a 4K PNG on the H100 machine, CUDA won from
// about 40 blur stages, 110 ms on the CPU (auto-device); blur's estimates
// ran 1.1 to 3 times its measured CPU time there (cpu-cost-device), so
// auto turned to CUDA at 27 stages, before CUDA was faster.
constexpr double kCudaStartExitMs = 250;

// The CPU backend's stages stop scaling near this many threads, bounded by
// memory: on the H100 machine's 16 cores, blur 3 at 4K RGB ran 6.6 times
// as fast as on one, sharpen 13.7 times, invert 3.4 times (cpu-cost-device).
// Counting no more keeps the estimate on the slow side, where a wrong
// guess costs only what CUDA always cost.
constexpr int kCpuScalingThreads = 8;

// The CPU backend's time for `pipeline` on an image of `shape`, in ms: each
// stage's cpu_cost (its op header) times the samples it reads or writes,
// whichever are more, shared by `threads`. The pipeline must plan for that
// shape (the caller has checked it, lib/plan.hpp).
double estimate_cpu_ms(const Pipeline& pipeline, const ImageShape& shape, int threads);

struct AutoDevice {
  bool start_cuda;     // false: the CPU, with CUDA never initialised
  std::string reason;  // for -v; empty where the shape was unknown
};

// start_cuda unless the shape is known and the estimate is under
// kCudaStartExitMs. A GPU may still turn out unusable (select_backend).
AutoDevice choose_auto_device(const Pipeline& pipeline, const std::optional<ImageShape>& shape, int threads);

}  // namespace gpuimg
