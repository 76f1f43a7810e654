// A convolution's stage data (ops/convolve.hpp): its weights from the
// command line's list, whether its sums are exact for this depth, and
// where the GPU's tensor cores take it, its weights as their operands.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "convolve_mma.hpp"
#include "number_lists.hpp"
#include "ops/convolve.hpp"

namespace gpuimg {
namespace {

void push_double(std::vector<std::int32_t>& data, double d) {
  std::uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  data.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
  data.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(bits >> 32)));
}

}  // namespace

std::vector<std::int32_t> Convolve::stage_data(const Params& p, const Shape& in) {
  const std::vector<double>& weights = number_list(p.weights);
  const double max = in.bytes == 1 ? 255 : 65535;
  double sum = 0, magnitude = 0;  // s in the pinned order; A, exact where it matters
  bool integers = true;
  for (double k : weights) {
    sum += k;
    magnitude += std::fabs(k);
    integers = integers && k == std::floor(k);
  }
  // Decimal weights meant to cancel (eight -0.1 around 0.8) add up to a
  // rounding error (2.8e-17), which S / s would blow up to white.
  if (std::fabs(sum) < Convolve::kZeroSum * magnitude) sum = 0;
  const bool exact = integers && magnitude * max < 0x1p24;
  const std::int32_t divisor = exact ? static_cast<std::int32_t>(std::fabs(sum)) : 0;
  const MeanDivider divide =
      MeanDivider::for_sums(divisor, static_cast<std::uint64_t>(magnitude * max)).value_or(MeanDivider{0, 0, 0});

  std::vector<std::int32_t> data = {exact,
                                    sum < 0,
                                    divisor,
                                    static_cast<std::int32_t>(divide.half),
                                    static_cast<std::int32_t>(divide.magic),
                                    static_cast<std::int32_t>(divide.shift)};
  static_assert(kSumsWords == 6, "the words above");
  for (double k : weights) {
    const float f = static_cast<float>(k);
    std::int32_t word;
    std::memcpy(&word, &f, sizeof word);
    data.push_back(word);
  }
  for (double k : weights) push_double(data, k);
  push_double(data, sum);
  if (mma_convolve_weights(in, p, data.data()) != MmaWeights::none) {
    const std::vector<std::uint32_t> fragments = mma_weight_fragments(p, in, data.data());
    data.insert(data.end(), fragments.begin(), fragments.end());
  }
  return data;
}

}  // namespace gpuimg
