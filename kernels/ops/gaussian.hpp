#pragma once
// Gaussian blur with exact integer weights (gaussian_weights.hpp): the
// horizontal pass, then the vertical, each an exact integer sum, rounded
// once at the end. CPU: lib/cpu_gaussian.cpp; GPU: kernels/gaussian_fused.cu
// up to r = 12, kernels/gaussian.cu past it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gaussian_weights.hpp"
#include "op_spec.hpp"

namespace gpuimg {

struct Gaussian {
  static constexpr const char* name = "gaussian";
  static constexpr const char* summary =
      "Gaussian blur of standard deviation S, radius ceil(3S), border replicate; integer weights, exact sums, "
      "rounded once.";
  static constexpr const char* example = "--gaussian 2.5";
  static constexpr Kind kind = Kind::custom;

  struct Params {
    double sigma;
  };
  static constexpr std::array<ParamSpec, 1> params{
      {ParamSpec{"S", ParamType::real, 0, 100, "standard deviation in pixels"}.above_min()}};
  static Params make(const ParamValue* v) { return {v[0].number}; }
  static std::array<ParamValue, 1> values(const Params& p) {
    ParamValue v{};
    v.number = p.sigma;
    return {v};
  }

  // The weights, for this input's depth.
  static std::vector<std::int32_t> stage_data(const Params& p, const Shape& in) {
    return gaussian_weights(p.sigma, in.bytes);
  }

  static void run_cpu(const CpuStage& s, const Params& p);
  static int launch(const CudaStage& s, const Params& p);  // a cudaError_t
  // Its one pass (gaussian_fused.cu) also applies a fused pass's tables
  // (op_spec.hpp), at 8 bits only, as the blur's do (ops/blur.hpp); the
  // word rows path (gaussian_words.cu), which takes the same stage before
  // it, takes none: there the tables run as lookup passes of their own.
  // In the suite's run at 0267509 (H200, 7680x4320 RGB) --levels --gamma
  // --gaussian 1 --invert in the one pass took 0.531 ms, where a pass of
  // one table, --gaussian 1 alone and --invert alone took 0.066, 0.229 and
  // 0.055.
  static bool takes_tables(const Params& p, const Shape& in) {
    const int r = gaussian_radius(p.sigma);
    return in.bytes == 1 && gaussian_one_pass(r) && !gaussian_word_rows(r, in);
  }

  // Two passes of r + 1 multiplies a sample each (pairs folded about the
  // centre), 64-bit sums along x, two of them at 16 bits. Measured on the
  // 2-core development machine, 1920x1080, one thread, the slowest of 1, 3
  // and 4 channels: 8-bit 2.2 / 4.0 / 11.5 / 85 ns at r = 3 / 9 / 30 / 300,
  // 16-bit 7.6 / 14.4 / 39.3 / 441.
  static CpuCost cpu_cost(const Params& p) {
    const double r = gaussian_radius(p.sigma);
    return {1.5 + 0.34 * r, 4 + 1.47 * r};
  }

  // The one-axis sums between the GPU's two passes, a Line a sample; the
  // one pass needs none.
  static std::size_t scratch_bytes(const Params& p, const Shape& in) {
    if (gaussian_one_pass(gaussian_radius(p.sigma))) return 0;
    return static_cast<std::size_t>(in.pixels() * in.channels) *
           (in.bytes == 1 ? sizeof(GaussianSums<std::uint8_t>::Line) : sizeof(GaussianSums<std::uint16_t>::Line));
  }
};

}  // namespace gpuimg
