// map_image against a plain loop over pixels that evaluates the reference
// trees (support/expr_reference.hpp) at each sample: awkward sizes, 1 to 4
// channels, 8 and 16 bits, one expression or one per colour channel, alpha
// untouched, and the same bytes on 1 and 3 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "expr/compile.hpp"
#include "expr/row_eval.hpp"
#include "expr_reference.hpp"
#include "image.hpp"
#include "random_image.hpp"

namespace gpuimg::test {
namespace {

using namespace expr_ref;

// The stored sample, from README's words: clamped to [0, 1], NaN as 0, then
// the nearest of the M + 1 levels, halves up.
int stored(double result, int m) {
  if (std::isnan(result) || result <= 0) return 0;
  if (result >= 1) return m;
  return static_cast<int>(std::floor(m * result + 0.5));
}

Image expected(const std::vector<Node>& trees, const Image& in) {
  Image out(in.width, in.height, in.channels, in.depth);
  const int m = max_sample(in.depth), channels = in.channels;
  const bool alpha = channels == 2 || channels == 4;
  const int colours = alpha ? channels - 1 : channels;
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const std::size_t at = (std::size_t(y) * in.width + x) * channels;
      const auto unit = [&](int ch) { return double(sample(in, at + ch)) / m; };
      for (int ch = 0; ch < channels; ++ch) {
        int s = sample(in, at + ch);
        if (ch < colours) {
          // v r g b a c x y w h
          const double names[kVariables] = {unit(ch),
                                            unit(0),
                                            unit(colours == 3 ? 1 : 0),
                                            unit(colours == 3 ? 2 : 0),
                                            alpha ? unit(channels - 1) : 1.0,
                                            double(ch),
                                            double(x),
                                            double(y),
                                            double(in.width),
                                            double(in.height)};
          s = stored(eval(trees[trees.size() == 1 ? 0 : ch], names), m);
        }
        if (in.depth == Depth::U8)
          out.samples<std::uint8_t>()[at + ch] = std::uint8_t(s);
        else
          out.samples<std::uint16_t>()[at + ch] = std::uint16_t(s);
      }
    }
  return out;
}

Image mapped(const std::vector<expr::Program>& programs, const Image& in, int threads) {
  Image out(in.width, in.height, in.channels, in.depth);
  const Shape shape{in.width, in.height, in.channels, bytes_per_sample(in.depth)};
  expr::map_image(programs, in.data.data(), out.data.data(), shape, threads);
  return out;
}

// Trees that mostly stay in [0, 1] or cross it, so that the stored samples
// are not all 0 and M: the random tree blended into v.
Node blended(std::mt19937& rng) {
  Node tree = random_tree(rng, 4);
  return {Op::call, "mix", 0, {{Op::name, "v", 0, {}}, tree, {Op::number, "", 0.25, {}}}};
}

TEST(ExprMapImage, MatchesAPlainLoopOverPixels) {
  std::mt19937 rng(515);
  Printer printer(rng);
  const int sizes[][2] = {{1, 1}, {1, 300}, {300, 1}, {37, 23}, {257, 5}, {513, 3}};
  int round = 0;
  for (const auto& size : sizes)
    for (const Depth depth : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (const bool per_channel : {false, true}) {
          const int colours = channels == 2 || channels == 4 ? channels - 1 : channels;
          std::vector<Node> trees(per_channel ? colours : 1);
          std::string text;
          for (std::size_t i = 0; i < trees.size(); ++i) {
            trees[i] = blended(rng);
            text += (i ? ";" : "") + printer.text(trees[i]);
          }
          const Image in = random_image(size[0], size[1], channels, depth, 1000 + round++);
          SCOPED_TRACE(shape(in) + ": " + text);
          const std::vector<expr::Program> programs = expr::compile_map(text);
          const Image want = expected(trees, in);
          EXPECT_EQ(mapped(programs, in, 1).data, want.data);
          EXPECT_EQ(mapped(programs, in, 3).data, want.data);
        }
}

// Each name read on its own, so that a wrong r, g, b, a, c, x, y, w or h
// shows as itself rather than somewhere inside a random tree.
TEST(ExprMapImage, EachNameHoldsItsValue) {
  std::mt19937 rng(3);
  for (const char* word : {"v", "r", "g", "b", "a", "c / 2", "x / w", "y / h", "1 - v", "v^2.2"})
    for (int channels = 1; channels <= 4; ++channels) {
      const Image in = random_image(29, 7, channels, Depth::U16, rng());
      const std::vector<expr::Program> programs = expr::compile_map(word);
      const Image got = mapped(programs, in, 2);
      const int m = 65535, colours = channels == 2 || channels == 4 ? channels - 1 : channels;
      const bool alpha = colours != channels;
      for (int y = 0; y < in.height; ++y)
        for (int x = 0; x < in.width; ++x) {
          const std::size_t at = (std::size_t(y) * in.width + x) * channels;
          const auto unit = [&](int ch) { return double(sample(in, at + ch)) / m; };
          for (int ch = 0; ch < colours; ++ch) {
            const std::string w = word;
            double want = w == "v" ? unit(ch)
                          : w == "r" ? unit(0)
                          : w == "g" ? unit(colours == 3 ? 1 : 0)
                          : w == "b" ? unit(colours == 3 ? 2 : 0)
                          : w == "a" ? (alpha ? unit(channels - 1) : 1.0)
                          : w == "c / 2" ? ch / 2.0
                          : w == "x / w" ? double(x) / in.width
                          : w == "y / h" ? double(y) / in.height
                          : w == "1 - v" ? 1 - unit(ch)
                                         : xm::pow(unit(ch), 2.2);
            ASSERT_EQ(sample(got, at + ch), stored(want, m)) << word << " at " << x << "," << y << " channel " << ch;
          }
          if (alpha) {
            ASSERT_EQ(sample(got, at + channels - 1), sample(in, at + channels - 1));
          }
        }
    }
}

TEST(ExprMapImage, RefusesExpressionsThatFitNoChannelCount) {
  const Image in = random_image(4, 4, 4, Depth::U8, 1);
  EXPECT_THROW(mapped(expr::compile_map("v;v"), in, 1), std::invalid_argument);
  EXPECT_THROW(mapped(expr::compile_map("v;v;v;v"), in, 1), std::invalid_argument);
  EXPECT_NO_THROW(mapped(expr::compile_map("v;v;v"), in, 1));
  const Image gray = random_image(4, 4, 2, Depth::U8, 1);
  EXPECT_THROW(mapped(expr::compile_map("v;v;v"), gray, 1), std::invalid_argument);
}

}  // namespace
}  // namespace gpuimg::test
