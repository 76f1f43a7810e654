#pragma once
// The CPU loops for every op of Kind::resample (kernels/resample.hpp).
#include "op_spec.hpp"
#include "resample.hpp"

namespace gpuimg {

// Writes s.out from s.in through the tables: nearest copies pixels; the
// other filters run the passes of the axes that change size, the first
// premultiplying alpha as it reads and the last dividing it out as it
// writes. A stage that keeps both sides copies its input, as Pillow does.
void resample_cpu(const CpuStage& s, const ResampleTables& t);

}  // namespace gpuimg
