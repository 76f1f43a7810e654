// Sharpen's pinned arithmetic, exhaustively for 8-bit: every centre value
// against every reachable Laplacian, at strengths whose doubles are inexact.
// Random images rarely land within rounding error of a .5 tie; this grid
// lands on thousands of them, so any reordering of the double arithmetic
// (which would make backends or versions disagree) fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "backend.hpp"
#include "gpu.hpp"
#include "ops/sharpen.hpp"
#include "pipeline.hpp"
#include "random_image.hpp"

namespace gpuimg::test {
namespace {

// Centres sit at (3i+1, 3j+1); their four neighbours share the Laplacian's
// load as evenly as possible, so each (centre, Laplacian) pair is one plus sign.
struct PlusGrid {
  Image image;
  std::vector<std::pair<int, int>> pairs;  // (centre, laplacian) per plus, row-major
  int columns;
};

PlusGrid make_grid() {
  PlusGrid g;
  for (int c = 0; c <= 255; ++c)
    for (int lap = 4 * c - 1020; lap <= 4 * c; ++lap) g.pairs.push_back({c, lap});
  g.columns = 1024;
  const int rows = static_cast<int>((g.pairs.size() + g.columns - 1) / g.columns);
  g.image = Image(3 * g.columns, 3 * rows, 1, Depth::U8);
  auto* px = g.image.samples<std::uint8_t>();
  for (std::size_t k = 0; k < g.pairs.size(); ++k) {
    const auto [c, lap] = g.pairs[k];
    const int x = 3 * static_cast<int>(k % g.columns) + 1, y = 3 * static_cast<int>(k / g.columns) + 1;
    const int neighbours = 4 * c - lap;  // 0..1020, split over four samples
    const int w = g.image.width;
    px[y * w + x] = static_cast<std::uint8_t>(c);
    const int share[4] = {neighbours / 4 + (neighbours % 4 > 0), neighbours / 4 + (neighbours % 4 > 1),
                          neighbours / 4 + (neighbours % 4 > 2), neighbours / 4};
    px[(y - 1) * w + x] = static_cast<std::uint8_t>(share[0]);
    px[(y + 1) * w + x] = static_cast<std::uint8_t>(share[1]);
    px[y * w + x - 1] = static_cast<std::uint8_t>(share[2]);
    px[y * w + x + 1] = static_cast<std::uint8_t>(share[3]);
  }
  return g;
}

int pinned(int centre, int lap, double f) {
  const double v = centre + f * lap;  // two IEEE double operations, each rounded once
  double r = std::floor(v);
  if (v - r >= 0.5) r += 1;
  return static_cast<int>(std::min(std::max(r, 0.0), 255.0));
}

void expect_every_pair_pinned(void (*run)(Image&, const Pipeline&)) {
  const PlusGrid g = make_grid();
  // Inexact strengths, then strengths of the form a / 2^s, which the GPU
  // computes four samples at a time in 16-bit lanes (see the test below),
  // and 16, just past what the lanes hold.
  for (const char* f_text :
       {"0.1", "0.3", "0.7", "0.3333333333333333", "2.5", "1", "0.5", "15", "0.015625", "16"}) {
    const double f = std::strtod(f_text, nullptr);
    Image out = g.image;
    run(out, {parse_stage("sharpen", {f_text})});
    std::size_t bad = 0;
    for (std::size_t k = 0; k < g.pairs.size(); ++k) {
      const int x = 3 * static_cast<int>(k % g.columns) + 1, y = 3 * static_cast<int>(k / g.columns) + 1;
      const int got = out.samples<std::uint8_t>()[y * out.width + x];
      if (got != pinned(g.pairs[k].first, g.pairs[k].second, f) && bad++ < 3)
        ADD_FAILURE() << "F=" << f_text << " centre " << g.pairs[k].first << " laplacian " << g.pairs[k].second
                      << ": got " << got << ", expected " << pinned(g.pairs[k].first, g.pairs[k].second, f);
    }
    EXPECT_EQ(bad, 0u) << "F=" << f_text;
  }
}

TEST(SharpenArithmetic, EveryCentreAndLaplacianAt8Bit) {
  expect_every_pair_pinned([](Image& img, const Pipeline& p) { run_cpu(img, p); });
}

// Named for the GPU suite's filter (scripts/gpu_suite.sh).
TEST(GpuBackend, SharpenEveryCentreAndLaplacianAt8Bit) {
  GPUIMG_REQUIRE_GPU();
  expect_every_pair_pinned([](Image& img, const Pipeline& p) { run_cuda(img, p); });
}

// `strengths`, then `randoms` random ones (every third up to 1000, the
// others up to 4), then the doubles just above 1/3, 1/5, ... 1/39, whose
// products land near the ties.
std::vector<double> with_random_and_near_ties(std::vector<double> strengths, std::uint64_t seed, int randoms) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < randoms; ++i) strengths.push_back(unit(rng) * (i % 3 == 0 ? 1000 : 4));
  for (int den = 3; den < 40; den += 2) strengths.push_back(std::nextafter(1.0 / den, 1.0));
  return strengths;
}

// The 8-bit table against the pinned formula, pair by pair: strengths near
// the ties, random ones, and large ones whose products saturate.
TEST(SharpenArithmetic, ByteTableMatchesTheFormulaForEveryPair) {
  const std::vector<double> strengths = with_random_and_near_ties(
      {0.1, 0.3, 0.7, 2.5, 1.0 / 3, 1.0 / 7, 0.5, 1, 1000, 999.99, 0.0, 1e-12}, 20261122, 150);
  std::size_t full_formula_entries = 0;
  for (const double f : strengths) {
    const Sharpen::Params p = Sharpen::with_amount(f);
    for (int lap = -1020; lap <= 1020; ++lap) {
      const int k = Sharpen::table_entry(p, lap + 1020);
      full_formula_entries += k == kUntabulated;
      for (int c = std::max(0, (lap + 3) / 4); c <= std::min(255, (lap + 1020) / 4); ++c) {
        if (4 * c - lap < 0 || 4 * c - lap > 1020) continue;
        const int got = k == kUntabulated ? pinned(c, lap, f) : std::min(std::max(c + k, 0), 255);
        ASSERT_EQ(got, pinned(c, lap, f)) << "F=" << f << " centre " << c << " laplacian " << lap << " entry " << k;
      }
    }
  }
  // The tie branch is taken for some of these strengths, so it is tested too.
  EXPECT_GT(full_formula_entries, 0u);
}

// Sharpen::apply_bytes's words, given directly.
struct PlusWords {
  std::uint32_t centre, north, south, west, east;
  std::uint32_t word(int dx, int dy) const {
    return dy < 0 ? north : dy > 0 ? south : dx < 0 ? west : dx > 0 ? east : centre;
  }
};

// Four words of (centre, neighbour sum) pairs at a time, through
// apply_bytes, against the pinned formula. Each word carries four different
// pairs, so a lane that carried into or borrowed from its neighbour, or
// read another lane's table entry, would show.
void expect_words_pinned(double f) {
  static const std::vector<std::pair<int, int>> pairs = [] {
    std::vector<std::pair<int, int>> all;  // (centre, sum of the four neighbours)
    for (int c = 0; c <= 255; ++c)
      for (int sum = 0; sum <= 1020; ++sum) all.push_back({c, sum});
    return all;
  }();
  const Sharpen::Params p = Sharpen::with_amount(f);
  std::vector<std::uint32_t> table(Sharpen::word_table_size);
  if (Sharpen::uses_word_table(p))
    for (int i = 0; i < Sharpen::word_table_size; ++i) table[i] = Sharpen::word_table_entry(p, i);
  for (std::size_t k = 0; k < pairs.size(); k += 4) {
    PlusWords w{};
    for (int j = 0; j < 4; ++j) {
      const auto [c, sum] = pairs[(k + j * 65537) % pairs.size()];
      const int q = sum / 4, r = sum % 4;  // the sum split over four samples
      w.centre |= std::uint32_t(c) << 8 * j;
      w.north |= std::uint32_t(q + (r > 0)) << 8 * j;
      w.south |= std::uint32_t(q + (r > 1)) << 8 * j;
      w.west |= std::uint32_t(q + (r > 2)) << 8 * j;
      w.east |= std::uint32_t(q) << 8 * j;
    }
    const std::uint32_t got = Sharpen::apply_bytes(w, p, table.data());
    for (int j = 0; j < 4; ++j) {
      const auto [c, sum] = pairs[(k + j * 65537) % pairs.size()];
      ASSERT_EQ(int(got >> 8 * j & 0xff), pinned(c, 4 * c - sum, f))
          << "F=" << f << " centre " << c << " sum " << sum;
    }
  }
}

// Strengths a / 2^s, which the lanes compute without a table.
TEST(SharpenArithmetic, ByteLanesMatchTheFormulaForEveryPair) {
  int strengths = 0;
  for (int s = 0; s <= 8; ++s)
    for (int a = 0; a <= 64; ++a) {
      const double f = std::ldexp(a, -s);
      if (Sharpen::uses_word_table(Sharpen::with_amount(f))) continue;
      ++strengths;
      expect_words_pinned(f);
      if (HasFatalFailure()) return;
    }
  EXPECT_GT(strengths, 100);
  // The lanes take the common whole and halved strengths, and leave to the
  // table those they cannot hold exactly.
  for (double f : {0.0, 0.25, 0.5, 1.0, 1.5, 2.5, 15.0})
    EXPECT_FALSE(Sharpen::uses_word_table(Sharpen::with_amount(f))) << f;
  for (double f : {16.0, 0.3, 0.7, 1000.0, 1.0 / 128, std::nextafter(1.0, 2.0)})
    EXPECT_TRUE(Sharpen::uses_word_table(Sharpen::with_amount(f))) << f;
}

// Every other strength reads the word table, whose entries near the ties
// step up for some centres and not others: strengths near the ties, random
// ones, and large ones whose products saturate.
TEST(SharpenArithmetic, WordTableMatchesTheFormulaForEveryPair) {
  const std::vector<double> strengths = with_random_and_near_ties(
      {0.1, 0.3, 0.7, 1.1, 2.3, 0.35, 1.0 / 3, 1.0 / 7, 1000, 999.99, 16, 1e-12}, 20261123, 60);
  std::size_t tie_entries = 0;
  for (const double f : strengths) {
    const Sharpen::Params p = Sharpen::with_amount(f);
    ASSERT_TRUE(Sharpen::uses_word_table(p)) << f;
    for (int i = 0; i < Sharpen::table_size; ++i) tie_entries += Sharpen::table_entry(p, i) == kUntabulated;
    expect_words_pinned(f);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(tie_entries, 100u);
}

}  // namespace
}  // namespace gpuimg::test
