#pragma once
#include <array>
#include <cmath>

#include "op_spec.hpp"
#include "tables.hpp"

namespace gpuimg {

struct Gamma {
  static constexpr const char* name = "gamma";
  static constexpr const char* summary = "Gamma: floor(max * (v/max)^(1/G) + 0.5); G above 1 brightens.";
  static constexpr const char* example = "--gamma 2.2";
  static constexpr Kind kind = Kind::table;

  struct Params {
    double gamma;
  };
  static constexpr std::array<ParamSpec, 1> params{
      {ParamSpec{"G", ParamType::real, 0, 100, "the gamma"}.above_min()}};
  static Params make(const ParamValue* v) { return {v[0].number}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue g{};
    g.number = p.gamma;
    return {g};
  }
  static CpuCost cpu_cost(const Params&) { return {2.5, 3}; }

  static std::int32_t map(const Params& p, std::int32_t v, const TableContext& t) {
    return std::int32_t(std::floor(t.max * std::pow(double(v) / t.max, 1 / p.gamma) + 0.5));
  }
};

}  // namespace gpuimg
