#pragma once
#include <array>

#include "op_spec.hpp"
#include "remap.hpp"

namespace gpuimg {

// Quarter turns only: every other angle needs resampling and a background,
// which this op does not pretend to do.
struct Rotate {
  static constexpr const char* name = "rotate";
  static constexpr const char* summary = "Rotate clockwise by a multiple of 90 degrees (-90 is 270).";
  static constexpr const char* example = "--rotate 90";
  static constexpr Kind kind = Kind::remap;

  static constexpr const char* angles[] = {"90", "180", "270", "-90", "-180", "-270"};
  static constexpr ChoiceAlias signed_angles[] = {{"+90", 0}, {"+180", 1}, {"+270", 2}};
  struct Params {
    std::int32_t quarter_turns;  // clockwise, 1 to 3
  };
  static constexpr std::array<ParamSpec, 1> params{
      {ParamSpec{"ANGLE", ParamType::choice, 0, 0, "degrees clockwise", angles, 6}.also(signed_angles, 3)}};
  static Params make(const ParamValue* v) {
    const int degrees[] = {90, 180, 270, -90, -180, -270};
    return {((degrees[v[0].choice] / 90) % 4 + 4) % 4};
  }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue v{};
    v.choice = p.quarter_turns - 1;  // "90", "180", "270"
    return {v};
  }
  static Shape plan(Params& p, const Shape& in) { return mapped_shape(map(p, in), in); }
  static AxisMap map(const Params& p, const Shape& in) {
    switch (p.quarter_turns) {
      case 1: return {0, 0, 1, in.height - 1, -1, 0};  // out (x, y) = in (y, H-1-x)
      case 2: return {in.width - 1, -1, 0, in.height - 1, 0, -1};
      default: return {in.width - 1, 0, -1, 0, 1, 0};  // out (x, y) = in (W-1-y, x)
    }
  }
  static CpuCost cpu_cost(const Params& p) { return p.quarter_turns == 2 ? CpuCost{1, 1} : CpuCost{1.5, 1.5}; }
};

}  // namespace gpuimg
