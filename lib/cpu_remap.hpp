#pragma once
// The CPU loop for every op of Kind::remap (kernels/remap.hpp).
#include "op_spec.hpp"
#include "remap.hpp"

namespace gpuimg {

// Writes every pixel of s.out from the input pixel `map` names.
void remap_cpu(const CpuStage& s, const AxisMap& map);

}  // namespace gpuimg
