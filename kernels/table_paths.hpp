#pragma once
// The table pass's paths (table.cu). launch_lookup takes the first that
// suits the stage and that the device runs: at 8 bits the stream through
// shared memory, else a grid-stride pass over the same tables; at 16 bits
// with one table, that table brought into shared memory by a bulk copy,
// else copied in by the block, else (a table a colour channel, or too
// little shared memory) the int32 tables through the read-only cache. The
// tests launch each.
#include "cuda_launch.hpp"

namespace gpuimg {

enum class TablePath { stream8, grid8, bulk16, copied16, global16 };

// Whether the current device runs `path`: bulk copies (compute capability
// 9.0 and later) and the shared memory it needs a block.
cudaError_t table_path_runs(TablePath path, bool& runs);

// A pass of tables (the stage's data and host_data in TableData's layout,
// not the complement) by `path`: cudaErrorNotSupported where the device
// does not run it or the stage's tables do not suit it.
cudaError_t launch_lookup_path(const CudaStage& s, TablePath path);

}  // namespace gpuimg
