#pragma once
// The table pass's paths (table.cu). launch_lookup takes the first that
// suits the stage and that the device runs: at 8 bits the stream through
// shared memory, else a grid-stride pass over the same tables; at 16 bits
// with one table, that table brought into shared memory by a bulk copy,
// else copied in by the block, else (a table a colour channel, or too
// little shared memory) the int32 tables through the read-only cache. The
// tests launch each the GPU runs, and ask table_path_runs of others.
#include "cuda_launch.hpp"

namespace gpuimg {

enum class TablePath { stream8, grid8, bulk16, copied16, global16 };

// What the paths ask of a GPU: its compute capability's major number, the
// PTX version the table kernels were built from (cudaFuncAttributes: a
// build without sm_90 code runs older PTX on Hopper, where the bulk copies
// trap), and the shared memory a block may opt into, in bytes.
struct TableDevice {
  int major, ptx_version, room;
};
cudaError_t table_device(TableDevice& d);  // the current device's
bool table_path_runs(TablePath path, const TableDevice& d);

// A pass of tables (the stage's data and host_data in TableData's layout;
// a complement's are looked up too) by `path`: cudaErrorNotSupported
// where the device does not run it or the stage's tables do not suit it.
cudaError_t launch_lookup_path(const CudaStage& s, TablePath path);

}  // namespace gpuimg
