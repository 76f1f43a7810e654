#pragma once
#include <array>
#include <cstdint>

#include "op_spec.hpp"
#include "tables.hpp"

namespace gpuimg {

// Each colour channel stretched from its own smallest and largest value to
// the full range, in exact integers: (v - lo) * max / (hi - lo), rounded
// half up.
struct Normalize {
  static constexpr const char* name = "normalize";
  static constexpr const char* summary =
      "Stretch each colour channel's range [lo, hi] to [0, max], rounded half up; a flat channel is kept.";
  static constexpr const char* example = "--normalize";
  static constexpr Kind kind = Kind::table;
  static constexpr bool reads_range = true;

  struct Params {};
  static constexpr std::array<ParamSpec, 0> params{};
  static Params make(const ParamValue*) { return {}; }
  static std::array<ParamValue, 0> values(const Params&) { return {}; }
  // One read of the image for its range, then the lookup.
  static CpuCost cpu_cost(const Params&) { return {3.5, 4}; }

  static std::int32_t map(const Params&, std::int32_t v, const TableContext& t) {
    if (t.hi <= t.lo) return v;
    // Values outside [lo, hi] are in no image this table meets, but its
    // entries must stay samples: the next table is indexed by them.
    if (v <= t.lo) return 0;
    if (v >= t.hi) return t.max;
    const std::int64_t span = t.hi - t.lo;
    return std::int32_t((2 * std::int64_t(v - t.lo) * t.max + span) / (2 * span));
  }
};

}  // namespace gpuimg
