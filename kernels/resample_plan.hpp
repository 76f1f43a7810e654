#pragma once
// Host planning of a resize, one axis at a time: which input samples each
// output sample reads and with what weights, computed as Pillow 9.4 does
// (src/libImaging/Resample.c, precompute_coeffs and normalize_coeffs_8bpc;
// nearest as src/libImaging/Geometry.c, ImagingScaleAffine). The tables are
// flat int32 arrays, ready to upload; kernels/resample.hpp reads them.
#include <cstdint>
#include <vector>

#include "resample.hpp"

namespace gpuimg {

struct ResampleAxis {
  ResizeFilter filter = ResizeFilter::nearest;
  int in_size = 0;
  int out_size = 0;
  int taps = 0;                       // the longest run of input samples any output reads
  std::vector<std::int32_t> bounds;   // 2 per output: first input index, run length
  std::vector<std::int32_t> weights;  // taps per output, kResampleBits fraction bits, zero past the run

  // Pillow skips the pass of an axis that keeps its size (for nearest that
  // pass would copy anyway).
  bool skipped() const { return in_size == out_size; }
  ResampleTable table() const { return {bounds.data(), weights.data(), taps}; }
};

// A resample stage's plan: its filter and both axes' tables.
struct ResamplePlan {
  ResizeFilter filter;
  ResampleAxis x, y;
};

// Its stage data, one flat array for both backends (the GPU's copy uploaded
// with the stage records): a header of kResampleHeader entries, then x's
// bounds and weights, then y's. unpack_resample (resample.hpp) reads it.
std::vector<std::int32_t> pack_resample(const ResamplePlan& plan);

// At least as many int32 entries as plan_axis(filter, in_size, out_size)
// holds, from the filter's support alone, without building the table: the
// planner counts them against --max-pixels (a 50000000x1 resize of an 8x1
// image would otherwise take gigabytes of weights for a 50 MB output).
std::uint64_t resample_table_entries(ResizeFilter filter, int in_size, int out_size);

// The table for resizing an axis of in_size samples to out_size, both at
// least 1. Throws std::invalid_argument otherwise.
ResampleAxis plan_axis(ResizeFilter filter, int in_size, int out_size);

// The filter's kernel at x (in input samples at scale 1) and its support,
// the half-width outside which it is zero, as Pillow evaluates them: double
// arithmetic in Pillow's order, so that the weights come out to the bit.
// Not defined for nearest.
double resize_filter_kernel(ResizeFilter filter, double x);
double resize_filter_support(ResizeFilter filter);

}  // namespace gpuimg
