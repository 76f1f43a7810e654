#pragma once
#include <array>

#include "op_spec.hpp"
#include "tables.hpp"

namespace gpuimg {

struct Thresholding {
  static constexpr const char* name = "threshold";
  static constexpr const char* summary = "Each colour sample to max where v >= T * max, else 0.";
  static constexpr const char* example = "--threshold 50%";
  static constexpr Kind kind = Kind::table;

  struct Params {
    double level;
  };
  static constexpr std::array<ParamSpec, 1> params{{{"T", ParamType::fraction, 0, 1, "the threshold"}}};
  static Params make(const ParamValue* v) { return {v[0].number}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue t{};
    t.number = p.level;
    return {t};
  }
  static CpuCost cpu_cost(const Params&) { return {2.5, 3}; }

  static std::int32_t map(const Params& p, std::int32_t v, const TableContext& t) {
    return v >= p.level * t.max ? t.max : 0;
  }
};

}  // namespace gpuimg
