#pragma once
// Unsharp mask: the image plus A times its difference from its Gaussian
// blur, where that difference reaches the threshold. The blur is
// --gaussian's, to the byte (its weights, sums and rounding); the CPU and
// GPU paths are gaussian's with another last step (lib/cpu_gaussian.cpp,
// kernels/gaussian.cu).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gaussian.hpp"

namespace gpuimg {

struct Unsharp {
  static constexpr const char* name = "unsharp";
  static constexpr const char* summary =
      "Unsharp mask: v + A(v - g), g the --gaussian S of the image, where |v - g| >= T * max; alpha kept.";
  static constexpr const char* example = "--unsharp 2,1.5,2%";
  static constexpr Kind kind = Kind::custom;

  struct Params {
    double sigma, amount, threshold;
  };
  static constexpr std::array<ParamSpec, 3> params{
      {ParamSpec{"S", ParamType::real, 0, 100, "the blur's standard deviation in pixels"}.above_min(),
       ParamSpec{"A", ParamType::real, 0, 100, "the amount of the difference added"}.after(',').or_default(1),
       ParamSpec{"T", ParamType::fraction, 0, 1, "the least difference sharpened, of the largest value"}
           .after(',')
           .or_default(0)}};
  static Params make(const ParamValue* v) { return {v[0].number, v[1].number, v[2].number}; }
  static std::array<ParamValue, 3> values(const Params& p) {
    ParamValue s{}, a{}, t{};
    s.number = p.sigma;
    a.number = p.amount;
    t.number = p.threshold;
    return {s, a, t};
  }

  static std::vector<std::int32_t> stage_data(const Params& p, const Shape& in) {
    return Gaussian::stage_data({p.sigma}, in);
  }

  static void run_cpu(const CpuStage& s, const Params& p);
  static int launch(const CudaStage& s, const Params& p);  // a cudaError_t

  // The blur's, and the last step: on random images, whose results
  // saturate at random, its branches mispredict. Measured as the blur's
  // are: 10 to 26 ns a sample more than the blur at 8 bits, 9 to 31 at 16.
  static CpuCost cpu_cost(const Params& p) {
    const CpuCost blur = Gaussian::cpu_cost({p.sigma});
    return {blur.ns_per_sample_8bit + 25, blur.ns_per_sample_16bit + 30};
  }
  static std::size_t scratch_bytes(const Params& p, const Shape& in) { return Gaussian::scratch_bytes({p.sigma}, in); }

  // A colour sample v whose blur is g. In IEEE double, each operation
  // rounded once (no fused multiply-add on either backend): where
  // |v - g| >= T * max, v + A * (v - g), rounded half away from zero and
  // clamped; else v. Every result below 0 clamps to 0, so round half up
  // (round_saturate) gives the same.
  template <class T> GPUIMG_HD static T sharpened(int v, int g, const Params& p) {
    const int d = v - g;
    if (exact_double(d < 0 ? -d : d) < mul_rn(p.threshold, SampleTraits<T>::max)) return T(v);
    return round_saturate<T>(add_rn(exact_double(v), mul_rn(p.amount, exact_double(d))));
  }
};

}  // namespace gpuimg
