#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

#include "op_spec.hpp"
#include "resample_plan.hpp"

namespace gpuimg {

// Pillow's Image.resize, to the byte on 8-bit images (docs/resize.md).
struct Resize {
  static constexpr const char* name = "resize";
  static constexpr const char* summary =
      "Resize to SIZE as Pillow's Image.resize does, to the byte at 8 bits; "
      "Wx or xH keeps the aspect ratio, WxH> fits inside if larger, WxH< fits inside if smaller, WxH^ fills, N% "
      "scales both sides, A%xB% each its own.";
  static constexpr const char* example = "--resize 50%:lanczos3";
  static constexpr Kind kind = Kind::resample;

  static constexpr double kMaxResizeSide = (1 << 30) - 1;
  static constexpr const char* filters[] = {"nearest", "box", "linear", "cubic", "lanczos3"};
  // Pillow's names for the filters whose definition these are.
  static constexpr ChoiceAlias pillow_filters[] = {{"bilinear", 2}, {"bicubic", 3}, {"lanczos", 4}};
  struct Params {
    SizeSpec size;
    std::int32_t filter;  // index into filters, the order of ResizeFilter
  };
  static constexpr std::array<ParamSpec, 2> params{
      {{"SIZE", ParamType::size, 1, kMaxResizeSide, "the new size"},
       ParamSpec{"FILTER", ParamType::choice, 0, 0, "the resampling filter", filters, 5}
           .also(pillow_filters, 3)
           .after(':')
           .or_choice(4)}};
  static Params make(const ParamValue* v) { return {v[0].size, v[1].choice}; }
  static std::array<ParamValue, 2> values(const Params& p) {
    ParamValue size{}, filter{};
    size.size = p.size;
    filter.choice = p.filter;
    return {size, filter};
  }

  // After plan(), size holds the output's sides.
  static Shape plan(Params& p, const Shape& in) {
    SizeSpec s = p.size;
    // Fitting and filling keep the aspect ratio: one side is the box's, the
    // other follows as for Wx or xH. Fitting takes the side whose scale is
    // smaller, filling the larger (compared exactly, W ih against H iw).
    // As ImageMagick's marks do, '>' leaves an image inside the box as it
    // is and '<' one that is not (larger in either side); where a side of
    // the image is the box's, fitting would keep the size anyway.
    if (s.fit != SizeFit::exact) {
      const bool width_scale_smaller = std::int64_t(s.width) * in.height <= std::int64_t(s.height) * in.width;
      const bool inside = in.width <= s.width && in.height <= s.height;
      if ((s.fit == SizeFit::shrink_to_fit && inside) || (s.fit == SizeFit::enlarge_to_fit && !inside))
        s = {in.width, in.height, 0, 0, s.fit};
      else if (width_scale_smaller == (s.fit != SizeFit::fill))
        s.height = 0;  // as Wx
      else
        s.width = 0;  // as xH
    }
    double w = s.width, h = s.height;
    if (s.width_percent > 0) {
      w = rounded_side(in.width * s.width_percent / 100);
      h = rounded_side(in.height * s.height_percent / 100);
    } else if (s.height == 0) {
      h = rounded_side(double(s.width) * in.height / in.width);
    } else if (s.width == 0) {
      w = rounded_side(double(s.height) * in.width / in.height);
    }
    // The tables index two entries an output sample in int.
    if (w > kMaxResizeSide || h > kMaxResizeSide) throw PlanError("the new size is past 2^30 - 1 pixels a side");
    p.size = {std::int32_t(w), std::int32_t(h), 0, 0, SizeFit::exact};
    return {p.size.width, p.size.height, in.channels, in.bytes};
  }

  static ResizeFilter filter(const Params& p) { return static_cast<ResizeFilter>(p.filter); }

  // The pass between the two (the output's width at the input's height),
  // where both sides change, and the tables of both axes.
  static std::uint64_t working_pixels(const Params& p, const Shape& in, const Shape& out) {
    const ResizeFilter f = filter(p);
    const std::uint64_t tables =
        resample_table_entries(f, in.width, out.width) + resample_table_entries(f, in.height, out.height);
    const bool between = f != ResizeFilter::nearest && in.width != out.width && in.height != out.height;
    return std::max(tables, between ? std::uint64_t(out.width) * std::uint64_t(in.height) : 0);
  }
  static ResamplePlan resample_plan(const Params& p, const Shape& in, const Shape& out) {
    return {filter(p), plan_axis(filter(p), in.width, out.width), plan_axis(filter(p), in.height, out.height)};
  }
  // Measured on the 2-core development machine at 1920x1080 RGB, per sample
  // read or written, whichever are more: nearest 0.7, lanczos3 up to 7.
  static CpuCost cpu_cost(const Params& p) { return p.filter == 0 ? CpuCost{1, 1} : CpuCost{8, 10}; }
};

}  // namespace gpuimg
