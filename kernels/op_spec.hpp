#pragma once
// What every op header declares about itself. The registry, the CLI, the
// validation, both backends and the test matrix read these declarations.
#include <cstddef>

namespace gpuimg {

// Each op header declares: name, summary, example, kind, a trivially
// copyable Params, `params` (one ParamSpec per value on the command line),
// make() from those values and values() back; stencil ops add halo() and
// the per-pixel apply(); custom ops add scratch_bytes() and their launch paths.
enum class ParamType { integer, real };

struct ParamSpec {
  const char* name;  // shown in --help: --blur R
  ParamType type;
  double min, max;   // inclusive
  const char* meaning;
};

// Every op also declares cpu_cost(params): what one stage costs the CPU
// backend, in nanoseconds per sample (width x height x channels) on one
// thread, the slowest of 1, 3 and 4 channels, scratch buffer and copy-back
// included, as scripts/bench_cpu_cost.sh measures it. --device auto adds
// these up to tell whether one image's pipeline is worth CUDA's start-up
// (lib/device_choice.hpp).
struct CpuCost {
  double ns_per_sample_8bit;
  double ns_per_sample_16bit;
};

// How a stage runs. Stencil ops are one case of the dispatch kernel (tile
// plus halo in shared memory); ops whose shape does not fit a tile (a
// separable filter of any radius, a resize) bring their own launch path.
enum class Kind { stencil, custom };

// The largest halo a stencil op may declare. The dispatch kernel holds each
// thread's (4 + 2H) x (2 + 2H) pixel window in registers and is instantiated
// for every halo up to this; an op that needs more raises it (and pays in
// registers and compile time).
constexpr int kMaxStencilHalo = 1;

}  // namespace gpuimg
