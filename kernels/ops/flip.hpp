#pragma once
#include <array>

#include "op_spec.hpp"
#include "remap.hpp"

namespace gpuimg {

struct Flip {
  static constexpr const char* name = "flip";
  static constexpr const char* summary = "Mirror top to bottom: row y becomes row H-1-y.";
  static constexpr const char* example = "--flip";
  static constexpr Kind kind = Kind::remap;

  struct Params {};
  static constexpr std::array<ParamSpec, 0> params{};
  static Params make(const ParamValue*) { return {}; }
  static std::array<ParamValue, 0> values(const Params&) { return {}; }
  static AxisMap map(const Params&, const Shape& in) { return flip_map(in); }
  // A copy: the CPU backend moves whole rows with memcpy.
  static CpuCost cpu_cost(const Params&) { return {0.3, 0.3}; }
};

struct Flop {
  static constexpr const char* name = "flop";
  static constexpr const char* summary = "Mirror left to right: column x becomes column W-1-x.";
  static constexpr const char* example = "--flop";
  static constexpr Kind kind = Kind::remap;

  struct Params {};
  static constexpr std::array<ParamSpec, 0> params{};
  static Params make(const ParamValue*) { return {}; }
  static std::array<ParamValue, 0> values(const Params&) { return {}; }
  static AxisMap map(const Params&, const Shape& in) { return flop_map(in); }
  static CpuCost cpu_cost(const Params&) { return {1, 1}; }
};

}  // namespace gpuimg
