#pragma once
// Ops of Kind::remap copy every output pixel from one input pixel, found by
// an integer map that is one of the eight symmetries of the rectangle plus
// a translation: crop, flips, quarter turns and transpose are each one map,
// so one tiled kernel (remap.cu) and one CPU loop run them all.
#include <cstdint>

#include "pixel.hpp"
#include "shape.hpp"

namespace gpuimg {

// Output pixel (x, y) is input pixel (x0 + xx x + xy y, y0 + yx x + yy y);
// of xx, xy exactly one is +1 or -1, and of yx, yy the other one.
struct AxisMap {
  std::int32_t x0, xx, xy;
  std::int32_t y0, yx, yy;

  // Whether output rows run along input columns (a quarter turn, transpose).
  GPUIMG_HD bool swaps_axes() const { return xx == 0; }
  GPUIMG_HD int source_x(int x, int y) const { return x0 + xx * x + xy * y; }
  GPUIMG_HD int source_y(int x, int y) const { return y0 + yx * x + yy * y; }
};

// The maps of the symmetries, for an input of w x h pixels.
inline AxisMap flip_map(const Shape& in) { return {0, 1, 0, in.height - 1, 0, -1}; }
inline AxisMap flop_map(const Shape& in) { return {in.width - 1, -1, 0, 0, 0, 1}; }
inline AxisMap transpose_map() { return {0, 0, 1, 0, 1, 0}; }

// The output shape of `map` over `in`, where it keeps the whole image.
inline Shape mapped_shape(const AxisMap& map, const Shape& in) {
  Shape out = in;
  if (map.swaps_axes()) {
    out.width = in.height;
    out.height = in.width;
  }
  return out;
}

}  // namespace gpuimg
