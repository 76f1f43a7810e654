// Sharpen's pinned arithmetic, exhaustively for 8-bit: every centre value
// against every reachable Laplacian, at strengths whose doubles are inexact.
// Random images rarely land within rounding error of a .5 tie; this grid
// lands on thousands of them, so any reordering of the double arithmetic
// (which would make backends or versions disagree) fails here.
#include <gtest/gtest.h>

#include <cmath>

#include "backend.hpp"
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

TEST(SharpenArithmetic, EveryCentreAndLaplacianAt8Bit) {
  const PlusGrid g = make_grid();
  for (const char* f_text : {"0.1", "0.3", "0.7", "2.5", "0.3333333333333333"}) {
    const double f = std::strtod(f_text, nullptr);
    Image out = g.image;
    run_cpu(out, {parse_stage("sharpen", {f_text})});
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

}  // namespace
}  // namespace gpuimg::test
