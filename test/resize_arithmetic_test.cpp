// The resize's arithmetic outside what Pillow can check: the alpha
// conversions against their formulas, the axis tables' invariants, and the
// 16-bit path against a reference loop in double written here from
// docs/resize.md, and against the 8-bit result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_compare.hpp"
#include "pipeline.hpp"
#include "plan.hpp"
#include "resample_plan.hpp"
#include "resize_stage.hpp"
#include "error.hpp"

namespace gpuimg::test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// ---- The reference, in double, from the documented definition ----

double ref_kernel(ResizeFilter f, double x) {
  const double d = std::fabs(x);
  switch (f) {
    case ResizeFilter::box: return x > -0.5 && x <= 0.5 ? 1 : 0;
    case ResizeFilter::linear: return d < 1 ? 1 - d : 0;
    case ResizeFilter::cubic:  // Keys, a = -0.5, in its textbook form
      return d < 1 ? 1.5 * d * d * d - 2.5 * d * d + 1 : d < 2 ? -0.5 * d * d * d + 2.5 * d * d - 4 * d + 2 : 0;
    case ResizeFilter::lanczos3: {
      if (x < -3 || x >= 3) return 0;
      if (x == 0) return 1;
      return 3 * std::sin(kPi * x) * std::sin(kPi * x / 3) / (kPi * kPi * x * x);
    }
    case ResizeFilter::nearest: break;
  }
  return 0;
}

double ref_support(ResizeFilter f) {
  return f == ResizeFilter::box ? 0.5 : f == ResizeFilter::linear ? 1 : f == ResizeFilter::cubic ? 2 : 3;
}

// Output i of an axis: its first input index and integer weights.
struct RefTaps {
  int first;
  std::vector<double> w;  // integers, in units of 2^-22
};

std::vector<RefTaps> ref_axis(ResizeFilter f, int in, int out) {
  const double scale = double(in) / out, widen = std::max(scale, 1.0), support = ref_support(f) * widen;
  std::vector<RefTaps> taps(out);
  for (int i = 0; i < out; ++i) {
    const double centre = (i + 0.5) * scale;
    const int lo = std::max(0, int(std::floor(centre - support + 0.5)));
    const int hi = std::min(in, int(std::floor(centre + support + 0.5)));
    std::vector<double> w;
    double sum = 0;
    for (int j = lo; j < hi; ++j) {
      w.push_back(ref_kernel(f, (j + 0.5 - centre) / widen));
      sum += w.back();
    }
    // Normalised, then to 22 fraction bits, halves away from zero.
    for (double& v : w) v = std::round(v / sum * 4194304.0);
    taps[i] = {lo, w};
  }
  return taps;
}

// Nearest: the index is the floor of a position summed one step at a time.
std::vector<int> ref_nearest(int in, int out) {
  std::vector<int> idx(out);
  const double step = double(in) / out;
  double x = step / 2;
  for (int i = 0; i < out; ++i, x += step) idx[i] = std::min(in - 1, int(std::floor(x)));
  return idx;
}

double ref_sample(const Image& img, int x, int y, int c) {
  return sample(img, (std::size_t(y) * img.width + x) * img.channels + c);
}

void ref_set(Image& img, int x, int y, int c, double v) {
  img.samples<std::uint16_t>()[(std::size_t(y) * img.width + x) * img.channels + c] = std::uint16_t(v);
}

// The documented rounding: floor(sum / 2^22 + 1/2), clamped. The sum of
// 16-bit samples times 23-bit integers over a few hundred taps is exact in
// double.
double ref_round(double sum) { return std::clamp(std::floor(sum / 4194304.0 + 0.5), 0.0, 65535.0); }

Image ref_pass(const Image& in, const std::vector<RefTaps>& taps, bool horizontal) {
  Image out(horizontal ? int(taps.size()) : in.width, horizontal ? in.height : int(taps.size()), in.channels,
            in.depth);
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x)
      for (int c = 0; c < in.channels; ++c) {
        const RefTaps& t = taps[horizontal ? x : y];
        double sum = 0;
        for (std::size_t k = 0; k < t.w.size(); ++k) {
          const int j = t.first + int(k);
          sum += t.w[k] * (horizontal ? ref_sample(in, j, y, c) : ref_sample(in, x, j, c));
        }
        ref_set(out, x, y, c, ref_round(sum));
      }
  return out;
}

Image ref_resize16(const Image& in, int w, int h, ResizeFilter f) {
  if (w == in.width && h == in.height) return in;
  if (f == ResizeFilter::nearest) {
    Image out(w, h, in.channels, in.depth);
    const std::vector<int> xi = ref_nearest(in.width, w), yi = ref_nearest(in.height, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < in.channels; ++c) ref_set(out, x, y, c, ref_sample(in, xi[x], yi[y], c));
    return out;
  }
  const bool alpha = in.channels == 2 || in.channels == 4;
  const int a = in.channels - 1;
  Image img = in;
  if (alpha)  // round(c * a / 65535): never a tie, 65535 being odd
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x)
        for (int c = 0; c < a; ++c)
          ref_set(img, x, y, c, std::round(ref_sample(img, x, y, c) * ref_sample(img, x, y, a) / 65535.0));
  if (w != in.width) img = ref_pass(img, ref_axis(f, in.width, w), true);
  if (h != in.height) img = ref_pass(img, ref_axis(f, in.height, h), false);
  if (alpha)  // floor(65535 * c / a), at most 65535, where a is neither 0 nor 65535
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x) {
        const double av = ref_sample(img, x, y, a);
        if (av == 0 || av == 65535) continue;
        for (int c = 0; c < a; ++c)
          ref_set(img, x, y, c, std::min(65535.0, std::floor(65535.0 * ref_sample(img, x, y, c) / av)));
      }
  return img;
}

struct Size {
  int w, h;
};

// Inputs and the sizes they go to: whole and fractional factors, both ways,
// one axis, and down to one pixel; 61 to 4 is a long shrink (about 90 taps
// for lanczos3).
const std::vector<std::pair<Size, std::vector<Size>>> kShapes = {
    {{1, 1}, {{3, 2}, {1, 5}}},
    {{1, 7}, {{4, 3}, {1, 1}, {2, 16}}},
    {{9, 1}, {{4, 1}, {21, 3}}},
    {{7, 5}, {{3, 2}, {16, 11}, {7, 9}, {2, 5}, {1, 1}, {15, 2}}},
    {{61, 23}, {{4, 5}, {30, 23}, {61, 9}, {130, 7}}},
};

// ---- Tests ----

TEST(ResizeFilterNames, RoundTripAndRefuseOthers) {
  for (ResizeFilter f : kResizeFilters) {
    ResizeFilter back = ResizeFilter::nearest;
    EXPECT_TRUE(parse_resize_filter(resize_filter_name(f), &back));
    EXPECT_EQ(back, f);
  }
  ResizeFilter f;
  for (const char* bad : {"", "Lanczos3", "lanczos", "bicubic", "linear ", "hamming"})
    EXPECT_FALSE(parse_resize_filter(bad, &f)) << bad;
}

TEST(ResizeAlpha, EightBitIsPillowsRoundedProductAndTruncatedQuotient) {
  for (int a = 0; a < 256; ++a)
    for (int c = 0; c < 256; ++c) {
      const auto c8 = std::uint8_t(c), a8 = std::uint8_t(a);
      ASSERT_EQ(premultiply(c8, a8), std::lround(c * a / 255.0)) << c << " " << a;
      const int back = a == 0 || a == 255 ? c : std::min(255, 255 * c / a);
      ASSERT_EQ(unpremultiply(c8, a8), back) << c << " " << a;
    }
}

TEST(ResizeAlpha, SixteenBitIsTheSameFormulasAt65535) {
  std::vector<int> values = {0, 1, 2, 127, 128, 255, 256, 257, 32767, 32768, 65279, 65534, 65535};
  std::mt19937 rng(7);
  for (int i = 0; i < 600; ++i) values.push_back(int(rng() % 65536));
  for (int a : values)
    for (int c : values) {
      const auto c16 = std::uint16_t(c), a16 = std::uint16_t(a);
      ASSERT_EQ(premultiply(c16, a16), std::llround(double(c) * a / 65535.0)) << c << " " << a;
      const long long back = a == 0 || a == 65535 ? c : std::min(65535LL, 65535LL * c / a);
      ASSERT_EQ(unpremultiply(c16, a16), back) << c << " " << a;
    }
}

TEST(ResizePlan, RunsStayInsideTheInputAndWeightsSumToOne) {
  for (ResizeFilter f : kResizeFilters)
    for (int in : {1, 2, 5, 17, 100})
      for (int out : {1, 3, 17, 40, 233}) {
        const ResampleAxis ax = plan_axis(f, in, out);
        ASSERT_EQ(ax.bounds.size(), 2u * out);
        ASSERT_EQ(ax.weights.size(), std::size_t(out) * ax.taps);
        for (int i = 0; i < out; ++i) {
          const int first = ax.bounds[2 * i], n = ax.bounds[2 * i + 1];
          ASSERT_TRUE(first >= 0 && n >= 1 && n <= ax.taps && first + n <= in) << in << "->" << out << " @" << i;
          std::int64_t sum = 0;
          for (int k = 0; k < ax.taps; ++k) {
            if (k >= n) {
              ASSERT_EQ(ax.weights[i * ax.taps + k], 0);
            }
            sum += ax.weights[i * ax.taps + k];
          }
          // Each weight is rounded on its own: the sum is off by at most
          // half a unit per tap.
          EXPECT_LE(std::abs(sum - kResampleOne), (n + 1) / 2) << resize_filter_name(f) << " " << in << "->" << out;
        }
      }
}

// The 8-bit accumulator is a signed 32-bit int, as Pillow's: the half plus
// 255 times the positive weights (or the negative ones) must stay inside it.
TEST(ResizePlan, EightBitSumsFitASigned32BitInt) {
  std::int64_t most = 0, least = 0;
  for (ResizeFilter f : kResizeFilters)
    for (int in = 1; in <= 48; ++in)
      for (int out = 1; out <= 48; ++out) {
        const ResampleAxis ax = plan_axis(f, in, out);
        for (int i = 0; i < out; ++i) {
          std::int64_t pos = 0, neg = 0;
          for (int k = 0; k < ax.taps; ++k) {
            const std::int32_t w = ax.weights[i * ax.taps + k];
            (w > 0 ? pos : neg) += w;
          }
          most = std::max(most, pos);
          least = std::min(least, neg);
        }
      }
  EXPECT_LT((kResampleOne / 2) + 255 * most, std::int64_t{INT32_MAX});
  EXPECT_GT((kResampleOne / 2) + 255 * least, std::int64_t{INT32_MIN});
  // Lanczos3's lobes take the positive weights past one (to 1.29 here).
  EXPECT_GT(most, kResampleOne);
}

// The GPU's tiles (kernels/resample_tiles.cu) split each weight into three
// bytes, the high one signed: the stage data says whether every weight of
// both axes fits, and over every size up to 48 each does.
TEST(ResizePlan, StageDataSaysWhetherEveryWeightSplitsIntoThreeBytes) {
  for (ResizeFilter f : kResizeFilters)
    for (int in = 1; in <= 48; ++in)
      for (int out = 1; out <= 48; ++out) {
        const ResamplePlan plan{f, plan_axis(f, in, out), plan_axis(f, out, in)};
        const std::vector<std::int32_t> data = pack_resample(plan);
        ASSERT_TRUE(unpack_resample(data.data(), data.data()).byte_weights)
            << resize_filter_name(f) << " " << in << "->" << out;
      }
  ResamplePlan plan{ResizeFilter::cubic, plan_axis(ResizeFilter::cubic, 5, 3), plan_axis(ResizeFilter::cubic, 3, 5)};
  for (std::int32_t w : {1 << 23, -(1 << 23) - 1}) {
    plan.y.weights.back() = w;
    const std::vector<std::int32_t> data = pack_resample(plan);
    EXPECT_FALSE(unpack_resample(data.data(), data.data()).byte_weights) << w;
  }
  plan.y.weights.back() = -(1 << 23);
  const std::vector<std::int32_t> data = pack_resample(plan);
  EXPECT_TRUE(unpack_resample(data.data(), data.data()).byte_weights);
}

// Where every weight of both axes is a multiple of 2^16, the tiles skip the
// low and middle bytes' products: the stage data says so, checked here
// against the weights themselves. Box halving and doubling and linear
// doubling are such (weights of 1/2, 1/4 and 3/4); linear halving is not,
// its edge outputs' three taps renormalised (3/7, 3/7, 1/7).
TEST(ResizePlan, StageDataSaysWhetherEveryWeightIsItsHighByte) {
  for (ResizeFilter f : kResizeFilters)
    for (int in = 1; in <= 40; ++in)
      for (int out = 1; out <= 40; ++out) {
        const ResamplePlan plan{f, plan_axis(f, in, out), plan_axis(f, out, in)};
        bool high = true;
        for (const auto* weights : {&plan.x.weights, &plan.y.weights})
          for (std::int32_t w : *weights) high = high && w % 65536 == 0;
        const std::vector<std::int32_t> data = pack_resample(plan);
        ASSERT_EQ(unpack_resample(data.data(), data.data()).high_bytes, high)
            << resize_filter_name(f) << " " << in << "->" << out;
      }
  const auto high_bytes = [](ResizeFilter f, int in, int out) {
    const std::vector<std::int32_t> data = pack_resample({f, plan_axis(f, in, out), plan_axis(f, in, out)});
    return unpack_resample(data.data(), data.data()).high_bytes;
  };
  for (auto [in, out] : {std::pair{40, 20}, std::pair{20, 40}, std::pair{7680, 3840}, std::pair{3840, 7680}}) {
    EXPECT_TRUE(high_bytes(ResizeFilter::box, in, out)) << in << "->" << out;
    EXPECT_EQ(high_bytes(ResizeFilter::linear, in, out), out > in) << in << "->" << out;
  }
  EXPECT_FALSE(high_bytes(ResizeFilter::box, 30, 10));
}

// Halving's steady part (ResampleSteady), which the GPU's steady kernel
// makes with one set of weights in registers: checked against the tables
// themselves, output by output, for every filter and size up to 300, and
// none where an axis is not halved. Box halving is steady throughout;
// linear halving everywhere but its first and last outputs (three taps).
TEST(ResizePlan, StageDataGivesTheSteadyPartOfAHalvedAxis) {
  const auto matches = [](const ResampleAxis& a, int i, int like, int offset) {
    return a.bounds[2 * i] == 2 * i + offset && a.bounds[2 * i + 1] == a.bounds[2 * like + 1] &&
           std::equal(a.weights.begin() + i * a.taps, a.weights.begin() + (i + 1) * a.taps,
                      a.weights.begin() + like * a.taps);
  };
  for (ResizeFilter f : kResizeFilters)
    for (int in = 1; in <= 300; ++in)
      for (int out : {in / 2, (in + 1) / 2, in / 3 + 1, 2 * in}) {
        if (out < 1) continue;
        SCOPED_TRACE(std::string(resize_filter_name(f)) + " " + std::to_string(in) + "->" + std::to_string(out));
        const ResampleAxis a = plan_axis(f, in, out), other = plan_axis(f, 7, 5);
        for (const bool x : {true, false}) {
          const std::vector<std::int32_t> data = pack_resample(x ? ResamplePlan{f, a, other} : ResamplePlan{f, other, a});
          const ResampleTables t = unpack_resample(data.data(), data.data());
          const ResampleSteady s = x ? t.steady_x : t.steady_y, none = x ? t.steady_y : t.steady_x;
          EXPECT_EQ(none.first, none.end);
          if (in != 2 * out || f == ResizeFilter::nearest) {
            EXPECT_EQ(s.first, s.end);
            continue;
          }
          ASSERT_TRUE(s.first < s.end && s.first >= 0 && s.end <= out);
          for (int i = s.first; i < s.end; ++i) ASSERT_TRUE(matches(a, i, s.first, s.offset)) << i;
          if (s.first > 0) {
            EXPECT_FALSE(matches(a, s.first - 1, s.first, s.offset));
          }
          if (s.end < out) {
            EXPECT_FALSE(matches(a, s.end, s.first, s.offset));
          }
          if (f == ResizeFilter::box) {
            EXPECT_TRUE(s.first == 0 && s.end == out && s.offset == 0);
          }
          if (f == ResizeFilter::linear && out >= 3) {
            EXPECT_TRUE(s.first == 1 && s.end == out - 1 && s.offset == -1 && a.bounds[2 * s.first + 1] == 4);
          }
          // The steady kernel's 16-bit lanes take box's weights and linear's
          // of four taps (2^21; 2^19 and 3 * 2^19), and every filter's two
          // halves where one output is left; not linear's three-tap edges,
          // which its steady part of two outputs is, nor cubic's or
          // lanczos3's (negative lobes).
          EXPECT_EQ(steady_lane_weights(x ? t.x : t.y, s.first),
                    f == ResizeFilter::box || out == 1 || (f == ResizeFilter::linear && out >= 3));
        }
      }
}

// Nearest halving an even width maps output x to input 2 x + 1, which the
// GPU's nearest halving kernel takes (nearest_halving_fits); no other
// width does. At 8 bytes a pixel every even width is rows of whole vectors;
// at 3 only multiples of 16.
TEST(ResizePlan, NearestHalvesAtOddInputsExactlyWhereTheWidthHalves) {
  for (int in = 1; in <= 300; ++in)
    for (int out : {in / 2, (in + 1) / 2, in / 3 + 1}) {
      if (out < 1) continue;
      const std::vector<std::int32_t> data = pack_resample(
          {ResizeFilter::nearest, plan_axis(ResizeFilter::nearest, in, out), plan_axis(ResizeFilter::nearest, 3, 2)});
      const ResampleTables t = unpack_resample(data.data(), data.data());
      EXPECT_EQ(nearest_halving_fits(t, 8, in, out), in == 2 * out) << in << "->" << out;
      EXPECT_EQ(nearest_halving_fits(t, 3, in, out), in == 2 * out && in % 16 == 0) << in << "->" << out;
    }
  const std::vector<std::int32_t> box = pack_resample(
      {ResizeFilter::box, plan_axis(ResizeFilter::box, 32, 16), plan_axis(ResizeFilter::box, 3, 2)});
  EXPECT_FALSE(nearest_halving_fits(unpack_resample(box.data(), box.data()), 8, 32, 16));
}

TEST(ResizePlan, AnAxisThatKeepsItsSizeIsSkippedAndSizesUnderOneAreRefused) {
  EXPECT_TRUE(plan_axis(ResizeFilter::lanczos3, 9, 9).skipped());
  EXPECT_FALSE(plan_axis(ResizeFilter::lanczos3, 9, 8).skipped());
  EXPECT_THROW(plan_axis(ResizeFilter::box, 0, 3), std::invalid_argument);
  EXPECT_THROW(plan_axis(ResizeFilter::box, 3, 0), std::invalid_argument);
  const Image img = random_image(3, 2, 4, Depth::U8, 1);
  EXPECT_THROW(resize_stage(0, 2, ResizeFilter::cubic), UsageError);
  // Neither side changing is a copy, alpha untouched by any round trip.
  EXPECT_TRUE(same_samples(img, resize_cpu(img, 3, 2, ResizeFilter::cubic)));
}

// SIZE's sides for an input: WxH exactly (also WxH!); WxH> fits inside
// the box where the image is larger, the side whose scale is smaller the
// box's and the other as Wx or xH makes it; WxH< fits inside it the same
// way where the image lies inside it; WxH^ fills the box, by the side
// whose scale is larger; Wx, xH, N% and A%xB% as before.
TEST(ResizeSize, FitAndFillKeepTheAspectRatio) {
  struct Case {
    Shape in;
    const char* size;
    int width, height;
  };
  const Shape scene{320, 200, 3, 1}, tall{1, 1000, 1, 2}, wide{1000, 3, 4, 1};
  for (const Case& c : {Case{scene, "128x128", 128, 128}, Case{scene, "128x128!", 128, 128},
                        Case{scene, "128x128>", 128, 80}, Case{scene, "128x128^", 205, 128},
                        Case{scene, "100x50>", 80, 50}, Case{scene, "100x50^", 100, 63},
                        Case{scene, "160x100>", 160, 100}, Case{scene, "160x100^", 160, 100},
                        Case{scene, "320x200>", 320, 200}, Case{scene, "1000x1000>", 320, 200},
                        Case{scene, "1000x100>", 160, 100}, Case{scene, "1000x1000^", 1600, 1000},
                        Case{tall, "10x10>", 1, 10}, Case{tall, "10x10^", 10, 10000},
                        Case{wide, "10x10>", 10, 1}, Case{wide, "5x5^", 1667, 5},
                        Case{scene, "128x128<", 320, 200}, Case{scene, "1000x1000<", 1000, 625},
                        Case{scene, "1000x100<", 320, 200}, Case{tall, "10x2000<", 2, 2000},
                        Case{wide, "2000x2000<", 2000, 6},
                        Case{scene, "128x", 128, 80}, Case{scene, "x128", 205, 128}, Case{scene, "40%", 128, 80},
                        Case{scene, "40%x10%", 128, 20}}) {
    SCOPED_TRACE(std::string(c.size) + " of " + std::to_string(c.in.width) + "x" + std::to_string(c.in.height));
    const Shape out = planned_output(plan_pipeline({parse_stage("resize", {c.size})}, c.in), c.in);
    EXPECT_EQ(out.width, c.width);
    EXPECT_EQ(out.height, c.height);
  }
  for (const char* bad : {"128x>", "x128^", "50%>", "128x128>>", ">", "128x128<<", "x128<", "128x128<>"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_stage("resize", {bad}), UsageError);
  }
}

TEST(ResizeSixteenBit, MatchesTheReferenceLoopExactly) {
  std::uint32_t seed = 100;
  for (const auto& [from, sizes] : kShapes)
    for (int channels = 1; channels <= 4; ++channels) {
      const Image in = random_image(from.w, from.h, channels, Depth::U16, ++seed);
      for (const Size& to : sizes)
        for (ResizeFilter f : kResizeFilters) {
          SCOPED_TRACE(shape(in) + " to " + std::to_string(to.w) + "x" + std::to_string(to.h) + " " +
                       resize_filter_name(f));
          EXPECT_TRUE(same_samples(ref_resize16(in, to.w, to.h, f), resize_cpu(in, to.w, to.h, f)));
        }
    }
}

// An 8-bit image widened to 16 bits (v * 257) and resized, then narrowed
// back ((v + 128) / 257), is the 8-bit result within the rounding of one
// more pass: at most 1 apart. Where alpha is divided out, the 8-bit
// result's quantisation grows as 255 / a, so colour is compared there
// within 1 + 2 * 255 / a (and alpha 0 is not compared: its colour is
// whatever the premultiplied sum left, which differs in scale by design).
TEST(ResizeSixteenBit, WidenedEightBitResizesCloseToTheEightBitResult) {
  std::uint32_t seed = 200;
  for (const auto& [from, sizes] : kShapes)
    for (int channels = 1; channels <= 4; ++channels) {
      const Image in8 = random_image(from.w, from.h, channels, Depth::U8, ++seed);
      Image in16(in8.width, in8.height, channels, Depth::U16);
      for (std::size_t i = 0; i < in8.data.size(); ++i) in16.samples<std::uint16_t>()[i] = in8.data[i] * 257;
      for (const Size& to : sizes)
        for (ResizeFilter f : kResizeFilters) {
          SCOPED_TRACE(shape(in8) + " to " + std::to_string(to.w) + "x" + std::to_string(to.h) + " " +
                       resize_filter_name(f));
          const Image r8 = resize_cpu(in8, to.w, to.h, f), r16 = resize_cpu(in16, to.w, to.h, f);
          const bool alpha = in8.has_alpha();
          for (std::size_t p = 0; p < r8.pixel_count(); ++p) {
            const int a = alpha ? r8.data[p * channels + channels - 1] : 255;
            for (int c = 0; c < channels; ++c) {
              const std::size_t i = p * channels + c;
              const int narrowed = (r16.samples<std::uint16_t>()[i] + 128) / 257;
              const int diff = std::abs(narrowed - r8.data[i]);
              const bool colour = !(alpha && c == channels - 1);
              if (f == ResizeFilter::nearest) {
                ASSERT_EQ(diff, 0) << "sample " << i;
              } else if (!colour || a == 255 || !alpha) {
                EXPECT_LE(diff, 1) << "sample " << i;
              } else if (a != 0) {
                EXPECT_LE(diff, 1 + 2 * 255 / a) << "sample " << i << ", alpha " << a;
              }
            }
          }
        }
    }
}

}  // namespace
}  // namespace gpuimg::test
