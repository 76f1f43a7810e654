#pragma once
#include <array>

#include "op_spec.hpp"
#include "pixel.hpp"

namespace gpuimg {

// Y = bt601_gray(R, G, B) (pixel.hpp).
struct Grayscale {
  static constexpr const char* name = "grayscale";
  static constexpr const char* summary =
      "RGB to one gray channel, Y = (4899 R + 9617 G + 1868 B + 8192) >> 14; alpha kept, gray input unchanged.";
  static constexpr const char* example = "--grayscale";
  static constexpr Kind kind = Kind::point;

  struct Params {};
  static constexpr std::array<ParamSpec, 0> params{};
  static Params make(const ParamValue*) { return {}; }
  static std::array<ParamValue, 0> values(const Params&) { return {}; }
  static Shape plan(Params&, const Shape& in) {
    Shape out = in;
    if (in.channels >= 3) out.channels = in.channels - 2;
    return out;
  }
  static CpuCost cpu_cost(const Params&) { return {1, 1.5}; }

  template <class View>
  GPUIMG_HD static void apply(const View& in, int x, int y, const Params&, typename View::value_type* out) {
    using T = typename View::value_type;
    if (in.channels < 3) {
      for (int c = 0; c < in.channels; ++c) out[c] = in.at(x, y, c);
      return;
    }
    const int r = in.at(x, y, 0), g = in.at(x, y, 1), b = in.at(x, y, 2);
    out[0] = T(bt601_gray(r, g, b));
    if (in.channels == 4) out[1] = in.at(x, y, 3);
  }
};

}  // namespace gpuimg
