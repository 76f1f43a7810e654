// --gaussian's pinned integer definition against the double-precision
// Gaussian it stands for: the weights' error lemma of docs/gaussian.md over
// a sweep of S, exact normalisation at the largest sums, and the worst
// images there are (each sample of the window at 0 or max, whichever the
// weights' error favours) within the proven bound. --unsharp against its
// definition at parameters the op matrix leaves out.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend.hpp"
#include "image_compare.hpp"
#include "oracles.hpp"
#include "run_one.hpp"
#include "pipeline.hpp"

namespace gpuimg::test {
namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// S from just above 0 to 100, past each step of the radius and between.
std::vector<double> sigma_sweep() {
  std::vector<double> s = {1e-300, 0.01, 0.2, 1.0 / 3, std::nextafter(1.0 / 3, 1.0), 0.5, 0.7, 1, 1.5, 2.2, 3, 10,
                           33.34, 77.7, 99.999, 100};
  for (double v = 0.05; v < 100; v *= 1.37) s.push_back(v);
  return s;
}

// The normalised real weights exp(-i^2 / 2S^2) / sum, i in [-r, r].
std::vector<double> real_weights(double sigma) {
  const int r = static_cast<int>(std::ceil(3 * sigma));
  std::vector<double> d;
  double sum = 0;
  for (int i = -r; i <= r; ++i) sum += (i == 0 ? 1 : std::exp(-double(i) * i / (2 * sigma * sigma)));
  for (int i = -r; i <= r; ++i) d.push_back((i == 0 ? 1 : std::exp(-double(i) * i / (2 * sigma * sigma))) / sum);
  return d;
}

// Each stage's data is r then the half kernel; every weight is what the
// README's rule gives (the oracle's own loop), they sum to 2^K, and their
// error against the real weights, sum |w_i / 2^K - d_i|, is at most
// 2r / 2^K: the lemma the bound stands on.
TEST(Gaussian, WeightsFollowTheRuleAndTheLemma) {
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const double sigma : sigma_sweep()) {
      SCOPED_TRACE("S=" + number(sigma) + (depth == Depth::U8 ? " 8-bit" : " 16-bit"));
      const std::vector<std::int32_t> data = gaussian_weights(sigma, depth == Depth::U8 ? 1 : 2);
      const std::vector<long long> w = Oracle<Gaussian>::weights(sigma, depth);
      const int r = static_cast<int>(w.size() / 2);
      ASSERT_EQ(data[0], r);
      ASSERT_EQ(data.size(), std::size_t(r) + 2);
      const double unit = std::ldexp(1.0, Oracle<Gaussian>::bits(depth));
      const std::vector<double> d = real_weights(sigma);
      long long sum = 0;
      double error = 0;
      for (int i = -r; i <= r; ++i) {
        EXPECT_EQ(data[1 + std::abs(i)], w[i + r]) << "i=" << i;
        EXPECT_GE(w[i + r], 0) << "i=" << i;
        sum += w[i + r];
        error += std::abs(w[i + r] / unit - d[i + r]);
      }
      EXPECT_EQ(sum, static_cast<long long>(unit));
      EXPECT_LE(error, 2 * r / unit * (1 + 1e-6));
    }
}

// Every sample at 0, at max, or in between: the output is the same
// constant, so the weights sum to exactly 2^K and the largest sums, max *
// 4^K, neither wrap nor lose a bit.
TEST(Gaussian, ConstantImagesStayConstant) {
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const double sigma : {0.3, 1.0, 10.0, 100.0})
      for (const int v : {0, 1, max_sample(depth) / 2, max_sample(depth) - 1, max_sample(depth)}) {
        Image in(23, 9, 3, depth);
        for (std::size_t i = 0; i < in.pixel_count() * 3; ++i) put(in, i, v);
        EXPECT_TRUE(same_samples(in, run_one(in, parse_stage("gaussian", {number(sigma)}))))
            << "S=" << sigma << " v=" << v;
      }
}

// The worst image for the centre pixel of a (2r + 1)^2 window: each sample
// at max where the pinned weight of its offset, w_i w_j / 4^K, exceeds the
// real one, d_i d_j, else 0 (and the reverse): the error of the weights
// reaches its largest there. The result stays within the proven bound of
// the double-precision value and equals the oracle's.
TEST(Gaussian, WorstCaseWindowsStayWithinTheBound) {
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const double sigma : {0.4, 1.0, 3.0, 10.0, 33.34, 100.0})
      for (const bool favoured : {true, false}) {
        SCOPED_TRACE("S=" + number(sigma) + (depth == Depth::U8 ? " 8-bit" : " 16-bit"));
        const std::vector<long long> w = Oracle<Gaussian>::weights(sigma, depth);
        const std::vector<double> d = real_weights(sigma);
        const int r = static_cast<int>(w.size() / 2), n = 2 * r + 1;
        const double unit = std::ldexp(1.0, Oracle<Gaussian>::bits(depth));
        const int hi = max_sample(depth);
        Image in(n, n, 1, depth);
        double real = 0;
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            const bool over = w[i] / unit * (w[j] / unit) > d[i] * d[j];
            const int v = over == favoured ? hi : 0;
            put(in, std::size_t(j) * n + i, v);
            real += d[i] * d[j] * v;
          }
        const Image got = run_one(in, parse_stage("gaussian", {number(sigma)}));
        const int centre = sample(got, std::size_t(r) * n + r);
        EXPECT_LE(std::abs(centre - real), Oracle<Gaussian>::bound(depth)) << centre << " against " << real;
        if (r <= 30) {
          EXPECT_TRUE(same_samples(Oracle<Gaussian>::expected(in, {sigma}), got));
        }
      }
}

// Edges and lines at full contrast, where a blur's error shows first: every
// sample within the proven bound of the double-precision Gaussian.
TEST(Gaussian, StepsAndLinesStayWithinTheBound) {
  for (const Depth depth : {Depth::U8, Depth::U16}) {
    const int hi = max_sample(depth);
    std::vector<Image> images;
    Image step(96, 40, 2, depth), line(96, 40, 1, depth), dot(41, 41, 1, depth), checks(64, 64, 1, depth);
    for (int y = 0; y < 40; ++y)
      for (int x = 0; x < 96; ++x) {
        put(step, (std::size_t(y) * 96 + x) * 2, x < 47 ? 0 : hi);
        put(step, (std::size_t(y) * 96 + x) * 2 + 1, y < 20 ? hi : 0);
        put(line, std::size_t(y) * 96 + x, x == 50 ? hi : 0);
      }
    for (std::size_t i = 0; i < dot.pixel_count(); ++i) put(dot, i, i == 20 * 41 + 20 ? hi : 0);
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 64; ++x) put(checks, std::size_t(y) * 64 + x, ((x / 3 + y / 3) & 1) ? hi : 0);
    for (const Image& in : {step, line, dot, checks})
      for (const double sigma : {0.35, 0.8, 1.0, 2.5, 7.0}) {
        SCOPED_TRACE(shape(in) + " S=" + number(sigma));
        const Image got = run_one(in, parse_stage("gaussian", {number(sigma)}));
        EXPECT_TRUE(same_samples(Oracle<Gaussian>::expected(in, {sigma}), got));
        const std::vector<double> real = Oracle<Gaussian>::real(in, sigma);
        for (std::size_t i = 0; i < real.size(); ++i)
          ASSERT_LE(std::abs(sample(got, i) - real[i]), Oracle<Gaussian>::bound(depth)) << "sample " << i;
      }
  }
}

// The op matrix moves one value at a time from A = 0, where the result is
// the image; here all three move together.
TEST(Unsharp, MatchesItsDefinition) {
  std::uint32_t seed = 300;
  for (const char* values : {"0.5,1", "1,1.5,2%", "2.5,0.7", "3,4,0.1", "10,1,0", "0.8,100", "40,2,5%"})
    for (const Depth depth : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{29, 1}, std::pair{1, 17}, std::pair{45, 38}}) {
          const Image in = random_image(w, h, channels, depth, seed++);
          const OpRecord rec = parse_stage("unsharp", {values});
          SCOPED_TRACE(describe(rec) + " on " + shape(in));
          EXPECT_TRUE(same_samples(Oracle<Unsharp>::expected(in, rec.get<Unsharp>()), run_one(in, rec)));
        }
}

// The threshold test, |v - g| >= T * M, on both sides of its edge: T = 40%
// makes T * 255 exactly 102 in double. (ImageMagick tests 2|v - g|: its T
// is gpuimg's 2T, docs/gaussian.md.)
TEST(Unsharp, ThresholdIsTheDifferenceAgainstTTimesMax) {
  const Unsharp::Params p{1, 1, 0.4};
  EXPECT_EQ(Unsharp::sharpened<std::uint8_t>(150, 48, p), 252);  // 102: sharpened
  EXPECT_EQ(Unsharp::sharpened<std::uint8_t>(150, 49, p), 150);  // 101: kept
  EXPECT_EQ(Unsharp::sharpened<std::uint8_t>(100, 202, p), 0);   // the same below g, clamped
  EXPECT_EQ(Unsharp::sharpened<std::uint8_t>(100, 201, p), 100);
  const Unsharp::Params q{1, 0.5, 0.5};  // 0.5 * 65535 = 32767.5
  EXPECT_EQ(Unsharp::sharpened<std::uint16_t>(40000, 40000 - 32768, q), 56384);  // sharpened
  EXPECT_EQ(Unsharp::sharpened<std::uint16_t>(40000, 40000 - 32767, q), 40000);  // kept
}

TEST(Unsharp, LeftOutValuesTakeTheirDefaults) {
  const Unsharp::Params p = parse_stage("unsharp", {"2"}).get<Unsharp>();
  EXPECT_EQ(p.sigma, 2);
  EXPECT_EQ(p.amount, 1);
  EXPECT_EQ(p.threshold, 0);
  EXPECT_EQ(parse_stage("unsharp", {"2,3,25%"}).get<Unsharp>().threshold, 0.25);
}

// Each stage is rounded before the next, as for every op.
TEST(Gaussian, PipelineEqualsItsStagesRunOneByOne) {
  const Pipeline pipeline = {parse_stage("gaussian", {"1.5"}), parse_stage("unsharp", {"2,1.2,1%"}),
                             parse_stage("invert", {}), parse_stage("gaussian", {"0.6"})};
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels) {
      const Image in = random_image(53, 31, channels, depth, 7 + channels);
      Image whole = in, stepwise = in;
      run_cpu(whole, pipeline);
      for (const OpRecord& rec : pipeline) stepwise = run_one(stepwise, rec);
      EXPECT_TRUE(same_samples(stepwise, whole)) << shape(in);
    }
}

}  // namespace
}  // namespace gpuimg::test
