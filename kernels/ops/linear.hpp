#pragma once
#include <array>
#include <cmath>

#include "op_spec.hpp"
#include "tables.hpp"

namespace gpuimg {

// Contrast and brightness in one, as vips's `linear`: A scales, B shifts by
// a fraction of the full range.
struct Linear {
  static constexpr const char* name = "linear";
  static constexpr const char* summary =
      "A * v + B * max, rounded half away from zero and clamped: contrast A, brightness B.";
  static constexpr const char* example = "--linear 1.2,-0.1";
  static constexpr Kind kind = Kind::table;

  struct Params {
    double scale, offset;
  };
  static constexpr std::array<ParamSpec, 2> params{
      {{"A", ParamType::real, -1000, 1000, "the factor"},
       ParamSpec{"B", ParamType::fraction, -1000, 1000,
                 "the offset, in multiples of the largest value (-0.1 or -10% darkens)"}
           .after(',')}};
  static Params make(const ParamValue* v) { return {v[0].number, v[1].number}; }
  static std::array<ParamValue, 2> values(const Params& p) {
    ParamValue a{}, b{};
    a.number = p.scale;
    b.number = p.offset;
    return {a, b};
  }
  static CpuCost cpu_cost(const Params&) { return {2.5, 3}; }

  static std::int32_t map(const Params& p, std::int32_t v, const TableContext& t) {
    const double r = std::round(p.scale * v + p.offset * t.max);
    return std::int32_t(r < 0 ? 0 : (r > t.max ? t.max : r));
  }
};

}  // namespace gpuimg
