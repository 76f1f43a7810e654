#pragma once
// The CPU loops for a pass of table stages (lib/table_pass.hpp).
#include <vector>

#include "op_spec.hpp"
#include "table_pass.hpp"

namespace gpuimg {

// Each colour channel's smallest and largest sample of the image at `src`.
std::vector<ChannelRange> channel_ranges_cpu(const void* src, const Shape& shape, int threads);

// Looks every colour sample up in the pass's tables (s.data, TableData's
// layout); alpha is copied.
void lookup_cpu(const CpuStage& s);

}  // namespace gpuimg
