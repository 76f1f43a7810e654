#pragma once
// Convolve's second oracle: cv::filter2D, which sums in its own order (by
// DFT for large kernels), so it holds the unrounded values to 1e-9 of the
// largest a value could be, and the output to their rounding wherever no
// value lies that close to a tie.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "opencv_oracles.hpp"
#include "oracles.hpp"

namespace gpuimg::test {

inline testing::AssertionResult matches_filter2d(const Image& in, const Convolve::Params& p, const Image& got) {
  const std::vector<double>& k = number_list(p.weights);
  const cv::Mat ref = opencv_convolve_unrounded(in, k, p.size.width, p.size.height);
  const std::vector<double> loop = Oracle<Convolve>::unrounded(in, p);
  double magnitude = 0, sum = 0;
  for (double w : k) {
    magnitude += std::abs(w);
    sum += w;
  }
  if (std::abs(sum) < Convolve::kZeroSum * magnitude) sum = 0;  // weights that cancel: S itself
  const int hi = max_sample(in.depth);
  const double tolerance = 1e-9 * std::max(1.0, magnitude * hi / (sum != 0 ? std::abs(sum) : 1.0));
  const double* r = ref.ptr<double>();
  std::size_t far = 0, wrong = 0, near_ties = 0;
  for (std::size_t i = 0; i < loop.size(); ++i) {
    if (std::abs(r[i] - loop[i]) > tolerance) ++far;
    const double frac = std::abs(r[i]) - std::floor(std::abs(r[i]));
    if (std::abs(frac - 0.5) <= tolerance)
      ++near_ties;
    else if (Oracle<Convolve>::rounded(r[i], hi) != sample(got, i))
      ++wrong;
  }
  if (far == 0 && wrong == 0) return testing::AssertionSuccess() << near_ties << " values near a tie";
  return testing::AssertionFailure() << far << " unrounded values further than " << tolerance
                                     << " from cv::filter2D's, " << wrong << " outputs not its rounding";
}

}  // namespace gpuimg::test
