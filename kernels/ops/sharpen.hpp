#pragma once
#include <array>
#include <cstdint>

#include "op_spec.hpp"
#include "pixel.hpp"

namespace gpuimg {

// The 3x3 kernel with centre 1+4F, edge neighbours -F, corners 0. Pinned as
// v = c + F * (4c - n - s - e - w) in IEEE double: the Laplacian is an exact
// integer, so the product and the sum are each rounded once, identically on
// every backend; then rounded half up and clamped.
struct Sharpen {
  static constexpr const char* name = "sharpen";
  static constexpr const char* summary =
      "Sharpen with the 3x3 kernel [0,-F,0; -F,1+4F,-F; 0,-F,0]; F = 1 is the classic 5-point sharpen.";
  static constexpr const char* example = "--sharpen 0.8";
  static constexpr Kind kind = Kind::stencil;

  struct Params {
    double amount;
  };
  static constexpr std::array<ParamSpec, 1> params{{{"F", ParamType::real, 0.0, 1000.0, "strength"}}};
  static Params make(const double* v) { return {v[0]}; }
  static std::array<double, 1> values(const Params& p) { return {p.amount}; }
  GPUIMG_HD static int halo(const Params&) { return 1; }
  // On the 2-core development machine (scripts/bench_cpu_cost.sh): 8-bit
  // through the table below, 2.1 to 3.0 ns a sample; 16-bit, the pinned
  // double arithmetic, 8 to 11 ns, and up to 14.3 while the machine was busy.
  static CpuCost cpu_cost(const Params&) { return {4, 16}; }

  template <class View>
  GPUIMG_HD static void apply(const View& in, int x, int y, const Params& p, typename View::value_type* out) {
    using T = typename View::value_type;
    for (int c = 0; c < in.channels; ++c) {
      const int centre = in.at(x, y, c);
      const int lap = laplacian(in, x, y, c);
      out[c] = pinned<T>(centre, lap, p);
    }
  }

  // 8-bit samples (see ByteTable in op_spec.hpp). The Laplacian takes one
  // of 2041 values, and the result is clamp(c + round(F * L)) with F * L
  // rounded once, as the pinned formula has it, unless that product lies
  // within 2^-32 of a half-integer without being one. |c + F * L| < 2^20,
  // so the sum's own rounding moves it by at most 2^-34: it crosses no tie
  // of round-half-up otherwise, and rounding commutes with adding the
  // integer c. Those few entries are kUntabulated instead.
  static constexpr int table_size = 2041;

  GPUIMG_HD static std::int32_t table_entry(const Params& p, int index) {
    const double product = mul_rn(p.amount, exact_double(index - 1020));
    const double below = floor(product);
    const double frac = product - below;  // exact
    if (frac != 0.5 && fabs(frac - 0.5) <= 0x1p-32) return kUntabulated;
    const double rounded = below + (frac >= 0.5 ? 1 : 0);
    // c is 0..255, so any |k| >= 255 saturates the same way.
    return static_cast<std::int32_t>(rounded < -255 ? -255 : (rounded > 255 ? 255 : rounded));
  }

  template <bool MayMiss, class View>
  GPUIMG_HD static void apply(const View& in, int x, int y, const Params& p, const std::int32_t* table,
                              std::uint8_t* out) {
    for (int c = 0; c < in.channels; ++c) {
      const int centre = in.at(x, y, c);
      const int lap = laplacian(in, x, y, c);
      const int k = table[lap + 1020];
      if (MayMiss && k == kUntabulated) {
        out[c] = pinned<std::uint8_t>(centre, lap, p);
      } else {
        const int v = centre + k;
        out[c] = static_cast<std::uint8_t>(v < 0 ? 0 : (v > 255 ? 255 : v));
      }
    }
  }

 private:
  template <class View> GPUIMG_HD static int laplacian(const View& in, int x, int y, int c) {
    return 4 * in.at(x, y, c) - in.at(x, y - 1, c) - in.at(x - 1, y, c) - in.at(x + 1, y, c) - in.at(x, y + 1, c);
  }

  template <class T> GPUIMG_HD static T pinned(int centre, int lap, const Params& p) {
    return round_saturate<T>(add_rn(exact_double(centre), mul_rn(p.amount, exact_double(lap))));
  }
};

}  // namespace gpuimg
