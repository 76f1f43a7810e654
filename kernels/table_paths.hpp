#pragma once
// The 8-bit table pass's two paths (table.cu): launch_lookup takes the
// stream through shared memory where streams_lookup8 says the device can,
// else the grid-stride pass over the same tables. The tests launch each.
#include "cuda_launch.hpp"

namespace gpuimg {

// Whether the current device takes the streamed pass: bulk copies (compute
// capability 9.0 and later) and the shared memory its ring needs a block.
cudaError_t streams_lookup8(bool& streams);

// An 8-bit pass of tables (the stage's data and host_data in TableData's
// layout) by each path; the stream only where streams_lookup8 says so.
cudaError_t launch_lookup8_stream(const CudaStage& s);
cudaError_t launch_lookup8_grid(const CudaStage& s);

}  // namespace gpuimg
