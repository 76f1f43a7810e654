#pragma once
#include <array>
#include <cmath>

#include "op_spec.hpp"
#include "tables.hpp"

namespace gpuimg {

struct Levels {
  static constexpr const char* name = "levels";
  static constexpr const char* summary =
      "Stretch [B, W] to the full range, then gamma G: floor(max * clamp((v/max - B)/(W - B), 0, 1)^(1/G) + 0.5).";
  static constexpr const char* example = "--levels 5%,95%,1.2";
  static constexpr Kind kind = Kind::table;

  struct Params {
    double black, white, gamma;
  };
  static constexpr std::array<ParamSpec, 3> params{
      {{"B", ParamType::fraction, 0, 1, "the black point, which becomes 0"},
       ParamSpec{"W", ParamType::fraction, 0, 1, "the white point, which becomes the largest value"}.after(','),
       ParamSpec{"G", ParamType::real, 0, 100, "the gamma; above 1 brightens"}.above_min().after(',').or_default(1)}};
  static Params make(const ParamValue* v) { return {v[0].number, v[1].number, v[2].number}; }
  static std::array<ParamValue, 3> values(const Params& p) {
    ParamValue b{}, w{}, g{};
    b.number = p.black;
    w.number = p.white;
    g.number = p.gamma;
    return {b, w, g};
  }
  static const char* check(const Params& p) { return p.black < p.white ? nullptr : "B must be below W"; }
  static CpuCost cpu_cost(const Params&) { return {2.5, 3}; }

  // On the sample scale first, y = (v - B max) / (W - B), rounded once:
  // where B max and W - B are exact in binary (25%,75%) an exact half stays
  // a half and rounds up, as the formula says. Scaled to [0, 1] first,
  // (v/max - B)/(W - B) times max took two roundings and strayed to either
  // side of such halves: --levels 25%,75% at 16 bits gave 9,568 of the
  // 65,536 values other than exact arithmetic does; this, none. Where B
  // and W are not exact in binary, halves may still go either way (over
  // every whole-percent B and W at 8 bits, 3,576 values against 3,907).
  static std::int32_t map(const Params& p, std::int32_t v, const TableContext& t) {
    const double y = (v - p.black * t.max) / (p.white - p.black);
    if (p.gamma == 1) return std::int32_t(std::floor((y < 0 ? 0 : (y > t.max ? t.max : y)) + 0.5));
    const double x = y / t.max;
    const double clamped = x < 0 ? 0 : (x > 1 ? 1 : x);
    return std::int32_t(std::floor(t.max * std::pow(clamped, 1 / p.gamma) + 0.5));
  }
};

}  // namespace gpuimg
