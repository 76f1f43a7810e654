// The median's selection networks (kernels/median_select.hpp) on their own,
// with plain ints for samples, against std::nth_element: windows of 9, 25
// and 49 values, with ties the rule and with none, and two windows that
// share their first values as the GPU's pixel pairs do.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "median_select.hpp"

namespace gpuimg {
namespace {

int nth_median(std::vector<int> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// Values drawn from a few, so that ties are the rule, or from the whole range.
std::vector<int> window_values(int n, std::mt19937& rng, int distinct) {
  std::uniform_int_distribution<int> pick(0, distinct - 1);
  std::vector<int> v(n);
  for (int& x : v) x = distinct >= 65536 ? pick(rng) : pick(rng) * (65535 / std::max(distinct - 1, 1));
  return v;
}

template <int N> int network_median(const std::vector<int>& v) {
  return ForgetfulSelection<int, ScalarMinMax<int>>::template median<N>([&](auto i) { return v[decltype(i)::value]; });
}

// Two windows that share their first Shared values, as the GPU's pixel pairs do.
template <int N, int Shared> std::pair<int, int> shared_medians(const std::vector<int>& a, const std::vector<int>& b) {
  using Select = ForgetfulSelection<int, ScalarMinMax<int>>;
  const auto held = Select::template take_shared<N, Shared>([&](auto i) { return a[decltype(i)::value]; });
  return {Select::template finish<N, Shared>(held, [&](auto i) { return a[decltype(i)::value]; }),
          Select::template finish<N, Shared>(held, [&](auto i) { return b[decltype(i)::value]; })};
}

TEST(MedianNetworks, ForgetfulSelectionIsTheMedian) {
  std::mt19937 rng(3);
  for (int distinct : {2, 3, 7, 65536})
    for (int round = 0; round < 2000; ++round) {
      const std::vector<int> v9 = window_values(9, rng, distinct), v25 = window_values(25, rng, distinct),
                             v49 = window_values(49, rng, distinct);
      ASSERT_EQ(network_median<9>(v9), nth_median(v9));
      ASSERT_EQ(network_median<25>(v25), nth_median(v25));
      ASSERT_EQ(network_median<49>(v49), nth_median(v49));
    }
}

TEST(MedianNetworks, SharedStartFinishesEachWindow) {
  std::mt19937 rng(4);
  for (int distinct : {2, 5, 65536})
    for (int round = 0; round < 2000; ++round) {
      std::vector<int> a = window_values(49, rng, distinct), b = a;
      const std::vector<int> own = window_values(7, rng, distinct);
      std::copy(own.begin(), own.end(), b.begin() + 42);
      const auto [ma, mb] = shared_medians<49, 42>(a, b);
      ASSERT_EQ(ma, nth_median(a));
      ASSERT_EQ(mb, nth_median(b));
      std::vector<int> c = window_values(25, rng, distinct), d = c;
      d[20] = own[0];
      d[24] = own[1];
      const auto [mc, md] = shared_medians<25, 20>(c, d);
      ASSERT_EQ(mc, nth_median(c));
      ASSERT_EQ(md, nth_median(d));
    }
}

TEST(MedianNetworks, SortedColumnsGiveTheMedianOfNine) {
  using Ops = ScalarMinMax<int>;
  std::mt19937 rng(5);
  for (int distinct : {2, 3, 65536})
    for (int round = 0; round < 5000; ++round) {
      const std::vector<int> v = window_values(9, rng, distinct);
      const auto l = sort_column<int, Ops>(v[0], v[3], v[6]), m = sort_column<int, Ops>(v[1], v[4], v[7]),
                 r = sort_column<int, Ops>(v[2], v[5], v[8]);
      ASSERT_EQ((median9<int, Ops>(l, m, r)), nth_median(v));
    }
}

}  // namespace
}  // namespace gpuimg
