// --ignore-aa's detector: a plain reference loop, written from the
// definition in docs/compare.md and not from lib/compare/anti_alias.cpp,
// must mark the same pixels on small random images of every layout and
// both depths; anti-aliased shapes moved by a fraction of a pixel compare
// equal once their edges are left out, and a new solid block does not.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "anti_alias.hpp"
#include "antialiased_shapes.hpp"
#include "comparison.hpp"
#include "diff_image.hpp"
#include "random_image.hpp"
#include "scope.hpp"

namespace gpuimg::test {
namespace {

// The pixel's R, G, B and A as the definition reads a layout.
std::vector<long long> rgba(const Image& img, int x, int y) {
  const std::size_t at = (static_cast<std::size_t>(y) * img.width + x) * img.channels;
  const long long m = max_sample(img.depth);
  std::vector<long long> s;
  for (int c = 0; c < img.channels; ++c) s.push_back(sample(img, at + c));
  if (img.channels <= 2) s.insert(s.begin(), 2, s[0]);  // gray is R = G = B
  if (s.size() == 3) s.push_back(m);
  return s;
}

// 299 R' + 587 G' + 114 B', each colour over white scaled by the maximum.
long long luma(const Image& img, int x, int y) {
  const std::vector<long long> p = rgba(img, x, y);
  const long long m = max_sample(img.depth), a = p[3];
  const long long w[3] = {299, 587, 114};
  long long sum = 0;
  for (int c = 0; c < 3; ++c) sum += w[c] * (p[c] * a + m * (m - a));
  return sum;
}

bool on_edge(const Image& img, int x, int y) { return x == 0 || y == 0 || x == img.width - 1 || y == img.height - 1; }

std::vector<std::pair<int, int>> neighbours(const Image& img, int x, int y) {
  std::vector<std::pair<int, int>> out;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = x + dx, ny = y + dy;
      if ((dx || dy) && nx >= 0 && ny >= 0 && nx < img.width && ny < img.height) out.emplace_back(nx, ny);
    }
  return out;
}

bool reference_flat(const Image& img, int x, int y) {
  int same = on_edge(img, x, y);
  for (const auto& [nx, ny] : neighbours(img, x, y)) same += rgba(img, nx, ny) == rgba(img, x, y);
  return same >= 3;
}

bool reference_anti_aliased(const Image& img, const Image& other, int x, int y) {
  int same = on_edge(img, x, y);
  std::pair<int, int> darkest{-1, -1}, brightest{-1, -1};
  long long low = 0, high = 0;
  for (const auto& [nx, ny] : neighbours(img, x, y)) {
    const long long d = luma(img, nx, ny) - luma(img, x, y);
    same += d == 0;
    if (d < low) low = d, darkest = {nx, ny};
    if (d > high) high = d, brightest = {nx, ny};
  }
  if (same > 2 || low == 0 || high == 0) return false;
  const auto flat_in_both = [&](std::pair<int, int> p) {
    return reference_flat(img, p.first, p.second) && reference_flat(other, p.first, p.second);
  };
  return flat_in_both(darkest) || flat_in_both(brightest);
}

// Pixels drawn from a palette of three colours, so that equal neighbours,
// flat areas and ramps all occur; the other image changes a fifth of them.
std::pair<Image, Image> palette_pair(int w, int h, int channels, Depth depth, std::uint32_t seed) {
  const Image palette = random_image(3, 1, channels, depth, seed);
  const std::size_t px = channels * bytes_per_sample(depth);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, 2), change(0, 4);
  Image a(w, h, channels, depth);
  for (std::size_t i = 0; i < a.pixel_count(); ++i)
    std::copy_n(palette.data.begin() + pick(rng) * px, px, a.data.begin() + i * px);
  Image b = a;
  for (std::size_t i = 0; i < b.pixel_count(); ++i)
    if (change(rng) == 0) std::copy_n(palette.data.begin() + pick(rng) * px, px, b.data.begin() + i * px);
  return {a, b};
}

TEST(CompareAntiAlias, AgreesWithAReferenceLoop) {
  const int sizes[][2] = {{1, 1}, {1, 9}, {9, 1}, {2, 2}, {3, 3}, {13, 5}, {17, 11}};
  int marked = 0, checked = 0;
  for (const auto& size : sizes)
    for (int channels = 1; channels <= 4; ++channels)
      for (const Depth depth : {Depth::U8, Depth::U16})
        for (std::uint32_t seed = 1; seed <= 6; ++seed) {
          const auto [e, a] = palette_pair(size[0], size[1], channels, depth, seed * 31 + channels);
          SCOPED_TRACE(shape(e) + " seed " + std::to_string(seed));
          std::vector<std::size_t> expected_left_out;
          for (int y = 0; y < e.height; ++y)
            for (int x = 0; x < e.width; ++x) {
              for (const auto& [img, other] : {std::make_pair(&e, &a), std::make_pair(&a, &e)}) {
                const bool want = reference_anti_aliased(*img, *other, x, y);
                ASSERT_EQ(anti_aliased(*img, *other, x, y), want) << "at " << x << "," << y;
                marked += want;
                ++checked;
              }
              const std::size_t i = static_cast<std::size_t>(y) * e.width + x;
              if (rgba(e, x, y) != rgba(a, x, y) &&
                  (reference_anti_aliased(e, a, x, y) || reference_anti_aliased(a, e, x, y)))
                expected_left_out.push_back(i);
            }
          Image ee = e, aa = a;
          std::vector<std::size_t> left_out;
          Scope scope;
          scope.ignore_aa = true;
          apply_scope(ee, aa, scope, nullptr, &left_out);
          EXPECT_EQ(left_out, expected_left_out);
        }
  // The sweep must reach both answers, or it proves little.
  EXPECT_GT(marked, checked / 50) << marked << " of " << checked;
  EXPECT_LT(marked, checked / 2) << marked << " of " << checked;
}

// The pair compared as `compare` does, with the difference picture when asked.
Comparison compare_scoped(Image e, Image a, bool ignore_aa, Image* picture = nullptr) {
  Scope scope;
  scope.ignore_aa = ignore_aa;
  std::vector<std::size_t> left_out;
  std::vector<std::string> notes = apply_scope(e, a, scope, nullptr, &left_out);
  Comparison c = compare_images(e, a, Backend::cpu, Ssim::skip);
  c.notes = std::move(notes);
  c.anti_aliased = std::move(left_out);
  if (picture) *picture = diff_image(e, a, c);
  return c;
}

TEST(CompareAntiAlias, ShapesMovedByAFractionOfAPixelCompareEqual) {
  for (int channels = 1; channels <= 4; ++channels)
    for (const Depth depth : {Depth::U8, Depth::U16})
      for (const double shift : {0.3, 0.5, 0.7}) {
        const Image e = antialiased_shapes(80, 72, 0, channels, depth);
        const Image a = antialiased_shapes(80, 72, shift, channels, depth);
        SCOPED_TRACE(shape(e) + " shifted by " + std::to_string(shift));
        EXPECT_GT(compare_scoped(e, a, false).overall.differing, 100u);
        const Comparison c = compare_scoped(e, a, true);
        // As with pixelmatch, an edge may keep a few pixels: here, at 0.7,
        // one of the bar where the image's last row cuts it.
        EXPECT_EQ(c.overall.differing, shift == 0.7 ? 1u : 0u);
        if (shift == 0.7) {
          EXPECT_EQ(std::make_pair(c.box.x0, c.box.y0), std::make_pair(39, 71));
        }
        EXPECT_GT(c.anti_aliased.size(), 100u);
        EXPECT_EQ(c.notes.back(), std::to_string(c.anti_aliased.size()) + " differing pixels left out as anti-aliased");
      }
}

TEST(CompareAntiAlias, ANewBlockDiffersWithAndWithout) {
  for (int channels = 1; channels <= 4; ++channels)
    for (const Depth depth : {Depth::U8, Depth::U16}) {
      const Image e = antialiased_shapes(80, 72, 0, channels, depth);
      SCOPED_TRACE(shape(e));
      const Image block = with_block(e, 62, 40, 16, 14);
      EXPECT_EQ(compare_scoped(e, block, false).overall.differing, 16u * 14);
      EXPECT_EQ(compare_scoped(e, block, true).overall.differing, 16u * 14);
      // Moved and with the block: the edges are left out, the block is not.
      const Comparison both =
          compare_scoped(e, with_block(antialiased_shapes(80, 72, 0.3, channels, depth), 62, 40, 16, 14), true);
      EXPECT_EQ(both.overall.differing, 16u * 14);
      EXPECT_EQ(both.box.x0, 62);
      EXPECT_EQ(both.box.y1, 53);
    }
}

TEST(CompareAntiAlias, TheDifferencePictureShowsThemInBlue) {
  const Image e = antialiased_shapes(80, 72, 0, 3, Depth::U8);
  const Image a = with_block(antialiased_shapes(80, 72, 0.3, 3, Depth::U8), 62, 40, 16, 14);
  Image d;
  const Comparison c = compare_scoped(e, a, true, &d);
  const auto colour = [&](std::size_t i) {
    return std::vector<int>(d.data.begin() + i * 3, d.data.begin() + i * 3 + 3);
  };
  ASSERT_FALSE(c.anti_aliased.empty());
  for (const std::size_t i : c.anti_aliased)
    EXPECT_EQ(colour(i), std::vector<int>(kDiffAntiAliased, kDiffAntiAliased + 3)) << i;
  EXPECT_EQ(colour(45 * 80 + 70)[0], 255);                                    // inside the block: a difference
  EXPECT_EQ(colour(39 * 80 + 70), std::vector<int>(kDiffBox, kDiffBox + 3));  // the box above it
}

}  // namespace
}  // namespace gpuimg::test
