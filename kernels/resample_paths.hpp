#pragma once
// The one-kernel path of --resize (resample_tiles.cu), which resample.cu
// takes before its two passes where it fits: 8-bit images without alpha
// (one or three channels), both axes changing size, a filter with weights
// (not nearest), runs of at most kMaxTileTaps input pixels.
#include "cuda_launch.hpp"
#include "resample.hpp"

namespace gpuimg {

constexpr int kMaxTileTaps = 32;

// Runs the resize as tiles if it fits them, setting `ran`; else leaves it
// false and launches nothing.
cudaError_t launch_resample_tiles(const CudaStage& s, const ResampleTables& device, const ResampleTables& host,
                                  bool& ran);

}  // namespace gpuimg
