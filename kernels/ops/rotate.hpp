#pragma once
#include <array>

#include "op_spec.hpp"
#include "remap.hpp"

namespace gpuimg {

// Quarter turns only: every other angle needs resampling and a background,
// which this op does not pretend to do. Every multiple of 90 from -360 to
// 360 is taken, so that a script computing its angle (0 or 360 included)
// need not special-case the turns that change nothing.
struct Rotate {
  static constexpr const char* name = "rotate";
  static constexpr const char* summary =
      "Rotate clockwise by a multiple of 90 degrees from -360 to 360 (-90 is 270; 0, 360 and -360 change nothing).";
  static constexpr const char* example = "--rotate 90";
  static constexpr Kind kind = Kind::remap;

  static constexpr const char* angles[] = {"0", "90", "180", "270", "360", "-90", "-180", "-270", "-360"};
  static constexpr int kDegrees[] = {0, 90, 180, 270, 360, -90, -180, -270, -360};
  // A sign is part of a number wherever gpuimg reads one ("+3"); -0 is 0.
  static constexpr ChoiceAlias signed_angles[] = {{"+0", 0}, {"-0", 0}, {"+90", 1}, {"+180", 2}, {"+270", 3}, {"+360", 4}};
  struct Params {
    std::int32_t quarter_turns;  // clockwise, 0 to 3
  };
  static constexpr std::array<ParamSpec, 1> params{
      {ParamSpec{"ANGLE", ParamType::choice, 0, 0, "degrees clockwise", angles, 9}.also(signed_angles, 6)}};
  static Params make(const ParamValue* v) { return {((kDegrees[v[0].choice] / 90) % 4 + 4) % 4}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue v{};
    v.choice = p.quarter_turns;  // "0", "90", "180", "270"
    return {v};
  }
  static Shape plan(Params& p, const Shape& in) { return mapped_shape(map(p, in), in); }
  static AxisMap map(const Params& p, const Shape& in) {
    switch (p.quarter_turns) {
      case 0: return {0, 1, 0, 0, 0, 1};  // a copy
      case 1: return {0, 0, 1, in.height - 1, -1, 0};  // out (x, y) = in (y, H-1-x)
      case 2: return {in.width - 1, -1, 0, in.height - 1, 0, -1};
      default: return {in.width - 1, 0, -1, 0, 1, 0};  // out (x, y) = in (W-1-y, x)
    }
  }
  static CpuCost cpu_cost(const Params& p) { return p.quarter_turns % 2 == 0 ? CpuCost{1, 1} : CpuCost{1.5, 1.5}; }
};

}  // namespace gpuimg
