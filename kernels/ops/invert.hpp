#pragma once
#include <array>

#include "op_spec.hpp"
#include "pixel.hpp"

namespace gpuimg {

struct Invert {
  static constexpr const char* name = "invert";
  static constexpr const char* summary = "Negate the colour channels: max - v. Alpha is unchanged.";
  static constexpr const char* example = "--invert";
  static constexpr Kind kind = Kind::point;

  struct Params {};
  static constexpr std::array<ParamSpec, 0> params{};
  static Params make(const ParamValue*) { return {}; }
  static std::array<ParamValue, 0> values(const Params&) { return {}; }
  // Measured on the 2-core development machine: 0.4 ns a sample at RGB
  // 8-bit, but up to 2.2 at RGBA 8-bit and 2.6 at RGBA 16-bit, alpha kept.
  static CpuCost cpu_cost(const Params&) { return {2.5, 3}; }

  template <class View>
  GPUIMG_HD static void apply(const View& in, int x, int y, const Params&, typename View::value_type* out) {
    using T = typename View::value_type;
    for (int c = 0; c < in.channels; ++c) {
      const T v = in.at(x, y, c);
      out[c] = is_alpha(c, in.channels) ? v : T(SampleTraits<T>::max - v);
    }
  }
};

}  // namespace gpuimg
