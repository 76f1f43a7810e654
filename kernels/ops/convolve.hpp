#pragma once
// A kernel of the user's weights, laid over each pixel's neighbourhood as
// written (correlation, as OpenCV's filter2D does), divided by their sum.
// Pinned in IEEE double: S = 0, then S = S + k * v for each weight k, its
// rows top to bottom and each left to right, v the sample under it (edges
// replicated), each product and sum rounded once; the sum of the weights,
// s, added in the same order, and taken as 0 where |s| is below 10^-12 A,
// A the sum of the weights' magnitudes (decimal weights meant to cancel
// leave a rounding error there); then S / s where s is not 0 (else S),
// rounded half away from zero and clamped. Every channel, alpha included.
//
// Where the weights are integers and their absolute values add up to A
// with A * max < 2^24, every product and partial sum is an integer of less
// than 2^24: S is exact in float and in int as well, in any order, and both
// backends take that exact path (exact_result). Elsewhere they run the
// double arithmetic above in its order (pinned_result).
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mean_divider.hpp"
#include "op_spec.hpp"
#include "pixel.hpp"

namespace gpuimg {

// How a stage's sums become samples: the first words of its data
// (Convolve::stage_data), before the weights.
struct ConvolveSums {
  bool exact;            // S is an exact integer (the path in the header above)
  bool negate;           // the weights' sum is negative
  std::int32_t divisor;  // on the exact path, |s|; 0 where s is 0
  MeanDivider divide;    // (S + divisor / 2) / divisor, where divisor >= 2
};

struct Convolve {
  static constexpr const char* name = "convolve";
  static constexpr const char* summary =
      "Correlate with a WxH kernel of your weights, row by row, divided by their sum where it is not (about) 0; "
      "edges replicated, every channel, in double precision.";
  static constexpr const char* example = "--convolve 3x3:1,2,1,2,4,2,1,2,1";
  static constexpr Kind kind = Kind::custom;

  static constexpr int kMaxSide = 31;
  static constexpr double kMaxWeight = 65536;
  static constexpr double kZeroSum = 1e-12;  // |s| below this times A is 0 (above)
  struct Params {
    SizeSpec size;  // W and H, both odd
    NumberList weights;
  };
  static constexpr std::array<ParamSpec, 2> params{
      {{"SIZE", ParamType::odd_size, 1, kMaxSide, "the kernel's width and height"},
       ParamSpec{"WEIGHTS", ParamType::list, -kMaxWeight, kMaxWeight, "W x H weights, row by row"}
           .after(':')
           .counts(1, kMaxSide * kMaxSide)}};
  static Params make(const ParamValue* v) { return {v[0].size, v[1].list}; }
  static std::array<ParamValue, 2> values(const Params& p) {
    ParamValue size{}, weights{};
    size.size = p.size;
    weights.list = p.weights;
    return {size, weights};
  }
  static std::string check(const Params& p) {
    const int w = p.size.width, h = p.size.height;
    if (p.weights.count == w * h) return "";
    return "a " + std::to_string(w) + "x" + std::to_string(h) + " kernel needs " + std::to_string(w * h) +
           " weights, got " + std::to_string(p.weights.count);
  }
  // Measured on the 2-core development machine, in CPU time while it was
  // busy (1x1 to 31x31, 1 to 4 channels): the exact path about 2.4 ns a
  // sample and 0.05 more a weight; the double path about 7 and 0.1 to 0.17
  // more, its division and rounding costing most at small kernels. Which
  // path a stage takes depends on its weights' values, so this is the
  // double path's.
  static CpuCost cpu_cost(const Params& p) {
    const double weights = double(p.size.width) * p.size.height;
    return {7 + 0.15 * weights, 7.5 + 0.15 * weights};
  }

  // Its own paths: lib/cpu_convolve.cpp and kernels/convolve*.cu; its data
  // from lib/convolve_data.cpp.
  static void run_cpu(const CpuStage& s, const Params& p);
  static int launch(const CudaStage& s, const Params& p);  // a cudaError_t
  static std::size_t scratch_bytes(const Params&, const Shape&) { return 0; }

  // The data: the ConvolveSums in kSumsWords words, the W x H weights as
  // floats (what the exact path multiplies by; elsewhere unused), then as
  // doubles, each two words (low, high), then s the same way; then, where
  // the GPU's tensor cores take the stage (convolve_mma.hpp), the weights
  // as their operands, from word fragments_at(W x H).
  static std::vector<std::int32_t> stage_data(const Params& p, const Shape& in);
  static constexpr int kSumsWords = 6;
  GPUIMG_HD static constexpr int fragments_at(int n) { return kSumsWords + n + 2 * (n + 1); }

  GPUIMG_HD static ConvolveSums sums(const std::int32_t* data) {
    const auto u = [&](int i) { return static_cast<std::uint32_t>(data[i]); };
    return {data[0] != 0, data[1] != 0, data[2], MeanDivider{u(3), u(4), u(5)}};
  }
  GPUIMG_HD static float float_weight(const std::int32_t* data, int i) {
#if defined(__CUDA_ARCH__)
    return __int_as_float(data[kSumsWords + i]);
#else
    float f;
    std::memcpy(&f, data + kSumsWords + i, sizeof f);
    return f;
#endif
  }
  // Weight i of n as a double; i = n gives s.
  GPUIMG_HD static double double_weight(const std::int32_t* data, int n, int i) {
    const std::int32_t* pair = data + kSumsWords + n + 2 * i;
#if defined(__CUDA_ARCH__)
    return __hiloint2double(pair[1], pair[0]);
#else
    const std::uint64_t bits = std::uint64_t(std::uint32_t(pair[1])) << 32 | std::uint32_t(pair[0]);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
#endif
  }

  // One step of the pinned sum.
  GPUIMG_HD static double step(double sum, double weight, int sample) {
    return add_rn(sum, mul_rn(weight, exact_double(sample)));
  }

  // The pinned result from S and s. round_saturate rounds half up, which
  // differs from half away from zero only at negative ties, which clamp to
  // 0 either way.
  template <class T> GPUIMG_HD static T pinned_result(double sum, double weight_sum) {
    return round_saturate<T>(weight_sum != 0 ? div_rn(sum, weight_sum) : sum);
  }

  // The same from an exact integer S. Where s is not 0, q = S / s in double
  // is within 2^-37 of the true quotient (q < 2^17 wherever it matters)
  // while a quotient that is not a tie lies at least 1 / (2 |s|) > 2^-25
  // from one, so rounding q half up is rounding S / s half up: 0 where
  // S / s <= 0, else (|S| + |s| / 2) / |s| in integers. Written as selects
  // rather than branches, which the GPU's kernels pay for at every sample;
  // the divider takes 0 to 0.
  template <class T> GPUIMG_HD static T exact_result(std::int32_t sum, const ConvolveSums& s) {
    const std::int32_t v = s.negate ? -sum : sum;
    const std::uint32_t positive = v > 0 ? static_cast<std::uint32_t>(v) : 0u;
    const std::uint32_t q = s.divisor >= 2 ? s.divide(positive) : positive;
    constexpr std::uint32_t hi = SampleTraits<T>::max;
    return T(q < hi ? q : hi);
  }
};

}  // namespace gpuimg
