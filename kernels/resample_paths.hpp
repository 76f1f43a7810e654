#pragma once
// The paths of --resize outside resample.cu. Nearest has its own
// (resample_nearest.cu). The rest are one-kernel paths, which resample.cu
// takes before its two passes where they fit: 8-bit images without alpha
// (one or three channels), both axes changing size, a filter with weights.
// Halving by box or linear takes a kernel of its own (resample_steady.cu).
// Runs of at least kMmaTileTaps inputs go to the tensor cores
// (resample_tiles_mma.cu) where eight outputs read at most kMaxTileChunks
// runs of 32 inputs and the GPU has compute capability 8.0 or later,
// shorter ones to dp4a sums (resample_tiles.cu).
#include "cuda_launch.hpp"
#include "resample.hpp"

namespace gpuimg {

// Halving 7680x4320 RGB on the H100, the tensor cores against dp4a: box
// (3 taps) 0.128 ms against 0.107, linear (5) 0.135 against 0.111, cubic
// (9) 0.138 against 0.149, lanczos3 (13) 0.139 against 0.188. Doubling:
// cubic (5) 0.216 against 0.180, lanczos3 (6 taps at exactly twice, 7 at
// other scales) 0.217 against 0.230. Those were 7 and up; since the mma
// sums start from constant registers (eight instructions fewer a product
// of 16 x 8 outputs, lanczos3 halving 0.139 -> 0.107 ms with the
// staging's changes), 6 and up.
constexpr int kMmaTileTaps = 6;
constexpr int kMaxTileChunks = 8;

// Nearest (resample_nearest.cu), which has paths of its own.
cudaError_t launch_resample_nearest(const CudaStage& s, const ResampleTables& device, const ResampleTables& host);
// Halving with steady runs of two or four inputs (resample_steady.cu):
// runs it if the image fits, setting `ran`; else leaves it false and
// launches nothing.
cudaError_t launch_resample_steady(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                   bool& ran);
// Runs the resize as tiles if it fits them, setting `ran`; else leaves it
// false and launches nothing.
cudaError_t launch_resample_tiles(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                  bool& ran);
// The tensor cores' tiles, for launch_resample_tiles, which has checked the
// rest: sets `ran` if the runs and the GPU fit them.
cudaError_t launch_resample_mma_tiles(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                      bool& ran);

}  // namespace gpuimg
