#pragma once
#include <array>

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
  // The pinned double arithmetic: 8 to 11 ns a sample on the 2-core
  // development machine, and up to 13.8 while it was busy with other work.
  static CpuCost cpu_cost(const Params&) { return {14, 14}; }

  template <class View>
  GPUIMG_HD static void apply(const View& in, int x, int y, const Params& p, typename View::value_type* out) {
    using T = typename View::value_type;
    for (int c = 0; c < in.channels; ++c) {
      const int centre = in.at(x, y, c);
      const int laplacian =
          4 * centre - in.at(x, y - 1, c) - in.at(x - 1, y, c) - in.at(x + 1, y, c) - in.at(x, y + 1, c);
      out[c] = round_saturate<T>(add_rn(exact_double(centre), mul_rn(p.amount, exact_double(laplacian))));
    }
  }
};

}  // namespace gpuimg
