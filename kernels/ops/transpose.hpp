#pragma once
#include <array>

#include "op_spec.hpp"
#include "remap.hpp"

namespace gpuimg {

struct Transpose {
  static constexpr const char* name = "transpose";
  static constexpr const char* summary = "Mirror along the main diagonal: rows become columns, W x H becomes H x W.";
  static constexpr const char* example = "--transpose";
  static constexpr Kind kind = Kind::remap;

  struct Params {};
  static constexpr std::array<ParamSpec, 0> params{};
  static Params make(const ParamValue*) { return {}; }
  static std::array<ParamValue, 0> values(const Params&) { return {}; }
  static Shape plan(Params&, const Shape& in) { return mapped_shape(transpose_map(), in); }
  static AxisMap map(const Params&, const Shape&) { return transpose_map(); }
  static CpuCost cpu_cost(const Params&) { return {1.5, 1.5}; }
};

}  // namespace gpuimg
