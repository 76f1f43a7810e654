#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "op_spec.hpp"
#include "remap.hpp"

namespace gpuimg {

// The region intersected with the image, as ImageMagick's -crop has it; a
// region without offsets is centred, its offsets floor((W_in - W) / 2) and
// floor((H_in - H) / 2), so a centred region larger than the image keeps it.
// Sides given as percentages are floor(v + 0.5) of the input's, at least 1,
// as --resize's are; the offsets stay pixels, as ImageMagick's do.
struct Crop {
  static constexpr const char* name = "crop";
  static constexpr const char* summary =
      "Keep the region WxH+X+Y (offsets may be negative), intersected with the image; WxH alone is centred; "
      "A%xB% or N% for WxH takes a share of each side.";
  static constexpr const char* example = "--crop 640x480+10+20";
  static constexpr Kind kind = Kind::remap;

  struct Params {
    Geometry region;  // after plan(): the intersection, offsets set
  };
  static constexpr std::array<ParamSpec, 1> params{
      {{"GEOMETRY", ParamType::geometry, 1, 2147483647.0, "width x height + left + top"}}};
  static Params make(const ParamValue* v) { return {v[0].geometry}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue v{};
    v.geometry = p.region;
    return {v};
  }

  static Shape plan(Params& p, const Shape& in) {
    Geometry g = p.region;
    if (g.width_percent > 0) {
      // At most the side, an int: the percentages are at most 100.
      g.width = static_cast<std::int32_t>(rounded_side(in.width * g.width_percent / 100));
      g.height = static_cast<std::int32_t>(rounded_side(in.height * g.height_percent / 100));
    }
    const std::int64_t x = g.offset ? g.x : floor_half(std::int64_t{in.width} - g.width);
    const std::int64_t y = g.offset ? g.y : floor_half(std::int64_t{in.height} - g.height);
    const std::int64_t x0 = std::max<std::int64_t>(x, 0), y0 = std::max<std::int64_t>(y, 0);
    const std::int64_t x1 = std::min<std::int64_t>(x + g.width, in.width);
    const std::int64_t y1 = std::min<std::int64_t>(y + g.height, in.height);
    if (x1 <= x0 || y1 <= y0)
      throw PlanError("the region lies outside the " + std::to_string(in.width) + "x" + std::to_string(in.height) +
                      " image");
    p.region = {std::int32_t(x1 - x0), std::int32_t(y1 - y0), std::int32_t(x0), std::int32_t(y0), true, 0, 0};
    return {p.region.width, p.region.height, in.channels, in.bytes};
  }
  static AxisMap map(const Params& p, const Shape&) { return {p.region.x, 1, 0, p.region.y, 0, 1}; }
  static CpuCost cpu_cost(const Params&) { return {0.3, 0.3}; }

 private:
  static std::int64_t floor_half(std::int64_t v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }
};

}  // namespace gpuimg
