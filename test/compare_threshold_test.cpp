// --threshold: the YIQ distance against values computed once by
// scripts/yiq_distance_values.py from the formula in docs/compare.md (the
// same doubles, bit for bit), each pair passing exactly at its distance
// and failing one double below; a plain loop over whole YIQ colours on
// random images of every layout; and the option and the manifest field as
// a user gives them, bad values included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codec.hpp"
#include "comparison.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"
#include "scope.hpp"
#include "tolerance.hpp"

namespace gpuimg::test {
namespace {

namespace fs = std::filesystem;

struct Pair {
  int channels, bits;
  std::vector<int> first, second;
  double distance;
};

// Printed by scripts/yiq_distance_values.py.
const Pair kPairs[] = {
    {3, 8, {10, 20, 30}, {40, 20, 200}, 0.20643204029320783},
    {3, 8, {200, 100, 50}, {190, 110, 50}, 0.03257534780094427},
    {1, 8, {100}, {120}, 0.07576014596893364},
    {1, 8, {0}, {255}, 0.965941861103904},
    {3, 8, {255, 255, 0}, {0, 0, 255}, 0.9608982742520346},
    {3, 16, {1000, 30000, 65535}, {1300, 29000, 60000}, 0.03206187631718817},
    {1, 16, {25700}, {30840}, 0.07576014596893364},
    {4, 8, {255, 0, 0, 128}, {255, 0, 0, 255}, 0.40793595327319127},
    {2, 8, {0, 0}, {255, 0}, 0.0},
    {2, 16, {1000, 65535}, {1000, 65534}, 1.4514420280680306e-05},
    {4, 16, {1, 2, 3, 40000}, {60000, 2, 3, 40001}, 0.3038251587958504},
};

Image pixel(int channels, int bits, const std::vector<int>& samples) {
  Image img(1, 1, channels, bits == 8 ? Depth::U8 : Depth::U16);
  for (int c = 0; c < channels; ++c)
    if (bits == 8)
      img.samples<std::uint8_t>()[c] = static_cast<std::uint8_t>(samples[c]);
    else
      img.samples<std::uint16_t>()[c] = static_cast<std::uint16_t>(samples[c]);
  return img;
}

std::uint64_t differing_within(Image e, Image a, double threshold) {
  Scope scope;
  scope.threshold = threshold;
  apply_scope(e, a, scope, nullptr);
  return compare_images(e, a, Backend::cpu, Ssim::skip).overall.differing;
}

TEST(CompareThreshold, DistancesMatchTheScriptBitForBit) {
  for (const Pair& p : kPairs) {
    const Image e = pixel(p.channels, p.bits, p.first), a = pixel(p.channels, p.bits, p.second);
    SCOPED_TRACE(shape(e) + " " + testing::PrintToString(p.first) + " vs " + testing::PrintToString(p.second));
    EXPECT_EQ(yiq_distance(e, a, 0), p.distance);
    EXPECT_EQ(yiq_distance(a, e, 0), p.distance);
    // At the distance the pair is equal; one double under, different.
    EXPECT_EQ(differing_within(e, a, p.distance), 0u);
    EXPECT_EQ(differing_within(e, a, std::nextafter(p.distance, 2.0)), 0u);
    if (p.distance > 0) {
      EXPECT_EQ(differing_within(e, a, std::nextafter(p.distance, 0.0)), 1u);
    }
  }
  // 16 bits are scaled to 8: 100 and 120 times 257 are 100 and 120.
  EXPECT_EQ(kPairs[2].distance, kPairs[6].distance);
}

// The YIQ of a whole colour over white, in 0..255 units; the distance from
// the difference of two of them.
std::vector<double> yiq(const Image& img, std::size_t i) {
  const double m = max_sample(img.depth);
  std::vector<double> v(img.channels);
  for (int c = 0; c < img.channels; ++c) v[c] = sample(img, i * img.channels + c);
  const double alpha = img.has_alpha() ? v.back() / m : 1;
  const double r = v[0], g = img.channels >= 3 ? v[1] : v[0], b = img.channels >= 3 ? v[2] : v[0];
  double rgb[3] = {r, g, b};
  for (double& c : rgb) c = (c * alpha + m * (1 - alpha)) * 255 / m;
  return {0.29889531 * rgb[0] + 0.58662247 * rgb[1] + 0.11448223 * rgb[2],
          0.59597799 * rgb[0] - 0.27417610 * rgb[1] - 0.32180189 * rgb[2],
          0.21147017 * rgb[0] - 0.52261711 * rgb[1] + 0.31114694 * rgb[2]};
}

double reference_distance(const Image& e, const Image& a, std::size_t i) {
  const std::vector<double> p = yiq(e, i), q = yiq(a, i);
  const double w[3] = {0.5053, 0.299, 0.1957};
  double delta = 0;
  for (int c = 0; c < 3; ++c) delta += w[c] * (p[c] - q[c]) * (p[c] - q[c]);
  return std::sqrt(delta / 35215);
}

TEST(CompareThreshold, AgreesWithAReferenceLoopOnRandomImages) {
  const int sizes[][2] = {{1, 1}, {1, 13}, {13, 1}, {3, 3}, {31, 17}};
  std::uint32_t seed = 1;
  for (const auto& size : sizes)
    for (int channels = 1; channels <= 4; ++channels)
      for (const Depth depth : {Depth::U8, Depth::U16})
        for (const double threshold : {0.0, 0.05, 0.2, 0.6}) {
          const Image e = random_image(size[0], size[1], channels, depth, seed++);
          const Image a = random_image(size[0], size[1], channels, depth, seed++);
          SCOPED_TRACE(shape(e) + " threshold " + std::to_string(threshold));
          std::uint64_t want = 0;
          for (std::size_t i = 0; i < e.pixel_count(); ++i) {
            const double d = reference_distance(e, a, i);
            ASSERT_NEAR(yiq_distance(e, a, i), d, 1e-12) << i;
            if (std::abs(d - threshold) < 1e-9) continue;  // too near to call apart from rounding
            want += d > threshold;
          }
          EXPECT_EQ(differing_within(e, a, threshold), want);
        }
}

std::string write_pixel(const TempDir& tmp, const char* name, const Pair& p, bool second) {
  const std::string path = (tmp / name).string();
  write_image(path, pixel(p.channels, p.bits, second ? p.second : p.first));
  return path;
}

std::string shortest(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

TEST(CompareThresholdCli, TheBoundaryAsAUserGivesIt) {
  TempDir tmp;
  const Pair& p = kPairs[1];
  const std::string e = write_pixel(tmp, "e.png", p, false), a = write_pixel(tmp, "a.png", p, true);
  EXPECT_EQ(run_binary({"compare", e, a}).status, 1);
  RunResult r = run_binary({"compare", e, a, "--threshold", "0.03257534780094427"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("note: 1 differing pixels within the colour threshold 0.03257534780094427 counted equal\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(run_binary({"compare", e, a, "--threshold", shortest(std::nextafter(p.distance, 0.0))}).status, 1);
  EXPECT_EQ(run_binary({"compare", e, a, "--threshold", shortest(std::nextafter(p.distance, 1.0))}).status, 0);
  EXPECT_NE(run_binary({"compare", "--help"}).out.find("--threshold"), std::string::npos);
  for (const char* bad : {"1.5", "-0.1", "abc", "0x1", ""}) {
    SCOPED_TRACE(bad);
    r = run_binary({"compare", e, a, "--threshold", bad, "--diff", (tmp / "d.png").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("gpuimg: --threshold: ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_FALSE(fs::exists(tmp / "d.png"));
  }
}

TEST(CompareThresholdCli, ManifestCasesTakeThreshold) {
  TempDir tmp;
  const Pair& p = kPairs[0];
  write_pixel(tmp, "in.png", p, false);
  write_pixel(tmp, "near.png", p, true);
  write_pixel(tmp, "far.png", p, true);
  const std::string manifest = (tmp / "golden.txt").string();
  std::ofstream(manifest) << "near | in.png | --invert --invert | threshold=0.21\n"
                             "far  | in.png | --invert --invert | threshold=0.2 max-diff=0\n";
  RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("2 cases: 1 passed, 1 failed, 0 errors"), std::string::npos) << r.out;
  std::ofstream(manifest) << "near | in.png | --invert | threshold=2\n";
  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find("golden.txt:1: threshold: must be a decimal number from 0 to 1"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

}  // namespace
}  // namespace gpuimg::test
