// compare's metrics on the CPU: pairs with hand-computed values, OpenCV
// (cv::norm, cv::PSNR, and SSIM written from the paper's formula with
// cv::GaussianBlur) as an independent oracle, the shape mismatches, the
// limits, the JSON schema and the difference picture.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "comparison.hpp"
#include "diff_image.hpp"
#include "error.hpp"
#include "random_image.hpp"
#include "report_json.hpp"
#include "thresholds.hpp"

#if GPUIMG_WITH_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "opencv_oracles.hpp"
#endif

namespace gpuimg::test {
namespace {

const Scope kWholeImages;  // no --ignore, --mask, --threshold or --ignore-aa

void set_sample(Image& img, int x, int y, int c, int v) {
  const std::size_t i = (static_cast<std::size_t>(y) * img.width + x) * img.channels + c;
  if (img.depth == Depth::U8)
    img.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
  else
    img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
}

// A 10x10 RGB image whose G at (3, 4) is one more than in `base`.
struct OneOff {
  Image base = random_image(10, 10, 3, Depth::U8, 7);
  Image off = base;
  OneOff() {
    set_sample(base, 3, 4, 1, 100);
    set_sample(off, 3, 4, 1, 101);
  }
};

TEST(CompareMetrics, IdenticalImages) {
  const Image img = random_image(17, 9, 4, Depth::U16, 1);
  const Comparison c = compare_images(img, img, Backend::cpu, Ssim::compute);
  EXPECT_TRUE(c.identical());
  EXPECT_EQ(c.mismatch, "");
  EXPECT_EQ(c.overall.max_diff, 0);
  EXPECT_EQ(c.overall.differing, 0u);
  EXPECT_EQ(c.overall.mae, 0);
  EXPECT_TRUE(std::isinf(c.overall.psnr));
  EXPECT_EQ(c.overall.ssim, 1);
  EXPECT_TRUE(c.box.empty());
  ASSERT_EQ(c.channels.size(), 4u);
  EXPECT_EQ(failures(c, {}), std::vector<std::string>{});
}

// SSIM is the costly metric: left out unless asked, yet free (1) for
// identical images; a limit on it asks for it.
TEST(CompareMetrics, SsimOnlyWhenAsked) {
  const OneOff p;
  const Comparison lazy = compare_images(p.base, p.off, Backend::cpu, Ssim::skip);
  EXPECT_FALSE(lazy.has_ssim());
  EXPECT_TRUE(std::isnan(lazy.channels[1].ssim));
  EXPECT_EQ(lazy.overall.max_diff, 1);
  EXPECT_EQ(failures(lazy, {}), std::vector<std::string>{"max-diff 1 > 0"});
  const Comparison same = compare_images(p.base, p.base, Backend::cpu, Ssim::skip);
  EXPECT_EQ(same.overall.ssim, 1);
  EXPECT_EQ(same.channels[2].ssim, 1);
  const auto limit = [](const char* name, const char* text) { return parse_threshold("", *find_threshold(name), text); };
  EXPECT_EQ(ssim_needed({}), Ssim::skip);
  EXPECT_EQ(ssim_needed({limit("max-diff", "3"), limit("min-psnr", "40")}), Ssim::skip);
  EXPECT_EQ(ssim_needed({limit("max-diff", "3"), limit("min-ssim", "0.9")}), Ssim::compute);
}

TEST(CompareMetrics, OnePixelOffByOne) {
  const OneOff p;
  const Comparison c = compare_images(p.base, p.off, Backend::cpu, Ssim::compute);
  EXPECT_FALSE(c.identical());
  EXPECT_EQ(c.overall.max_diff, 1);
  EXPECT_EQ(c.overall.differing, 1u);
  EXPECT_DOUBLE_EQ(c.overall.differing_share, 0.01);
  EXPECT_DOUBLE_EQ(c.overall.mae, 1.0 / 300);
  EXPECT_DOUBLE_EQ(c.overall.rmse, std::sqrt(1.0 / 300));
  EXPECT_DOUBLE_EQ(c.overall.psnr, 10 * std::log10(255.0 * 255 * 300));
  const ChannelMetrics& g = c.channels[1];
  EXPECT_EQ(g.max_diff, 1);
  EXPECT_EQ(g.differing, 1u);
  EXPECT_DOUBLE_EQ(g.mae, 0.01);
  EXPECT_DOUBLE_EQ(g.rmse, 0.1);
  EXPECT_DOUBLE_EQ(g.psnr, 10 * std::log10(255.0 * 255 * 100));
  for (int ch : {0, 2}) {
    EXPECT_EQ(c.channels[ch].max_diff, 0);
    EXPECT_TRUE(std::isinf(c.channels[ch].psnr));
    EXPECT_EQ(c.channels[ch].ssim, 1);
  }
  EXPECT_LT(g.ssim, 1);
  EXPECT_GT(g.ssim, 0.99);
  EXPECT_DOUBLE_EQ(c.overall.ssim, (2 + g.ssim) / 3);
  EXPECT_EQ(c.box.x0, 3);
  EXPECT_EQ(c.box.x1, 3);
  EXPECT_EQ(c.box.y0, 4);
  EXPECT_EQ(c.box.y1, 4);
}

TEST(CompareMetrics, ShapeMismatchesAreDifferencesWithAMessage) {
  const Image rgb8 = random_image(10, 10, 3, Depth::U8, 2);
  const Image cases[][2] = {
      {rgb8, random_image(11, 10, 3, Depth::U8, 2)},
      {rgb8, random_image(10, 10, 3, Depth::U16, 2)},
      {random_image(10, 10, 1, Depth::U8, 2), rgb8},
      {random_image(4, 5, 2, Depth::U16, 2), rgb8},
  };
  const char* expected[] = {"size 10x10 vs 11x10", "depth 8-bit vs 16-bit", "channels gray vs RGB",
                            "size 4x5 vs 10x10, channels gray+alpha vs RGB, depth 16-bit vs 8-bit"};
  for (int i = 0; i < 4; ++i) {
    const Comparison c = compare_images(cases[i][0], cases[i][1], Backend::cpu, Ssim::compute);
    EXPECT_EQ(c.mismatch, expected[i]);
    EXPECT_FALSE(c.identical());
    // No limit lets a mismatch through.
    EXPECT_EQ(failures(c, {parse_threshold("--", *find_threshold("min-psnr"), "0")}),
              std::vector<std::string>{expected[i]});
  }
}

TEST(CompareThresholds, DefaultIsExactAndEveryGivenLimitMustHold) {
  const OneOff p;
  const Comparison c = compare_images(p.base, p.off, Backend::cpu, Ssim::compute);
  EXPECT_EQ(failures(c, {}), std::vector<std::string>{"max-diff 1 > 0"});
  const auto limit = [](const char* name, const char* v) { return parse_threshold("--", *find_threshold(name), v); };
  EXPECT_EQ(failures(c, {limit("max-diff", "1")}), std::vector<std::string>{});
  EXPECT_EQ(failures(c, {limit("max-differing", "0"), limit("max-differing-share", "0.01"), limit("min-psnr", "60")}),
            (std::vector<std::string>{"max-differing 1 > 0"}));
  EXPECT_EQ(failures(c, {limit("min-psnr", "100")}).size(), 1u);
  EXPECT_EQ(failures(c, {limit("min-ssim", "1")}).size(), 1u);
  EXPECT_EQ(failures(c, {limit("max-mae", "0.004"), limit("max-rmse", "0.06")}), std::vector<std::string>{});
  EXPECT_EQ(failures(c, {limit("max-mae", "0.003")}).size(), 1u);
  EXPECT_EQ(describe(Thresholds{limit("max-diff", "1"), limit("min-psnr", "45.5")}), "max-diff=1 min-psnr=45.5");
}

TEST(CompareThresholds, BadLimitsAreRefused) {
  const ThresholdSpec& ssim = *find_threshold("min-ssim");
  for (const char* bad : {"", "x", "1.5", "-2", " 0.9", "0.9x", "nan"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_threshold("--", ssim, bad), UsageError);
  }
  try {
    parse_threshold("--", *find_threshold("max-diff"), "-1");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--max-diff: must be a decimal number from 0 to 65535, got '-1'");
  }
  EXPECT_EQ(find_threshold("psnr"), nullptr);  // aliases are the CLI's only
  // A share may be a percentage; other limits may not.
  const ThresholdSpec& share = *find_threshold("max-differing-share");
  EXPECT_EQ(parse_threshold("--", share, "5%").limit, 0.05);
  EXPECT_EQ(parse_threshold("--", share, "100%").limit, 1);
  EXPECT_EQ(parse_threshold("--", share, "0.05").limit, 0.05);
  for (const char* bad : {"101%", "-1%", "%", "5 %", "5%%", "1.5", "nan%"}) {
    try {
      parse_threshold("--", share, bad);
      ADD_FAILURE() << bad;
    } catch (const UsageError& e) {  // the text as typed, and both forms named
      EXPECT_EQ(std::string(e.what()), std::string("--max-differing-share: must be a fraction from 0 to 1 or a "
                                                   "percentage from 0% to 100%, got '") + bad + "'");
    }
  }
  EXPECT_THROW(parse_threshold("--", ssim, "90%"), UsageError);
}

TEST(CompareJson, OnePixelOffByOneInTheDocumentedSchema) {
  OneOff p;
  p.base = random_image(2, 1, 1, Depth::U8, 3);
  set_sample(p.base, 0, 0, 0, 10);
  set_sample(p.base, 1, 0, 0, 20);
  p.off = p.base;
  set_sample(p.off, 1, 0, 0, 22);
  const Comparison c = compare_images(p.base, p.off, Backend::cpu, Ssim::compute);
  const Thresholds limits = {parse_threshold("--", *find_threshold("max-diff"), "2")};
  const std::string json = report_json({"a\"b.png", "c.png", &p.base, &p.off, "cpu", &c, &limits, &kWholeImages});
  const std::string ssim = number_text(c.channels[0].ssim);
  EXPECT_EQ(json, R"({
  "schema": "gpuimg-compare/1",
  "result": "within",
  "pass": true,
  "expected": {"path": "a\"b.png", "width": 2, "height": 1, "channels": 1, "depth": 8},
  "actual": {"path": "c.png", "width": 2, "height": 1, "channels": 1, "depth": 8},
  "device": "cpu",
  "mismatch": null,
  "thresholds": {"max-diff": 2},
  "scope": {"threshold": null, "ignore_aa": false, "anti_aliased_pixels": 0},
  "failures": [],
  "notes": [],
  "overall": {"max_diff": 2, "differing_pixels": 1, "differing_share": 0.5, "mae": 1, "rmse": 1.4142135623730951, "psnr": )" +
                      number_text(10 * std::log10(255.0 * 255 / 2)) + R"(, "ssim": )" + ssim + R"(},
  "channels": [
    {"name": "gray", "max_diff": 2, "differing_pixels": 1, "differing_share": 0.5, "mae": 1, "rmse": 1.4142135623730951, "psnr": )" +
                      number_text(10 * std::log10(255.0 * 255 / 2)) + R"(, "ssim": )" + ssim + R"(}
  ],
  "bbox": {"x": 1, "y": 0, "width": 1, "height": 1}
}
)");
}

TEST(CompareJson, MismatchAndIdenticalHaveNullsWhereNoNumberFits) {
  const Image a = random_image(3, 3, 3, Depth::U8, 4), b = random_image(3, 3, 3, Depth::U16, 4);
  const Thresholds none;
  const Comparison m = compare_images(a, b, Backend::cpu, Ssim::compute);
  const std::string json = report_json({"a.png", "b.png", &a, &b, "cpu", &m, &none, &kWholeImages});
  EXPECT_NE(json.find("\"result\": \"different\",\n  \"pass\": false"), std::string::npos) << json;
  EXPECT_NE(json.find("\"mismatch\": \"depth 8-bit vs 16-bit\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"failures\": [\"depth 8-bit vs 16-bit\"],\n  \"notes\": [],\n  \"overall\": null,\n  \"channels\": [],\n  "
                      "\"bbox\": null\n}\n"),
            std::string::npos)
      << json;
  const Comparison same = compare_images(a, a, Backend::cpu, Ssim::compute);
  const std::string j2 = report_json({"a.png", "a.png", &a, &a, "cpu", &same, &none, &kWholeImages});
  EXPECT_NE(j2.find("\"result\": \"identical\""), std::string::npos) << j2;
  EXPECT_NE(j2.find("\"thresholds\": {\"max-diff\": 0}"), std::string::npos) << j2;
  EXPECT_NE(j2.find("\"psnr\": null"), std::string::npos) << j2;
  EXPECT_NE(j2.find("\"bbox\": null"), std::string::npos) << j2;
}

TEST(CompareDiffImage, DimmedGrayDifferencesInColourAndTheirBox) {
  Image e(8, 6, 3, Depth::U16);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 8; ++x)
      for (int c = 0; c < 3; ++c) set_sample(e, x, y, c, 65535);
  Image a = e;
  set_sample(a, 2, 2, 0, 65534);  // off by one: yellow
  set_sample(a, 4, 3, 2, 0);      // the full range: red
  const Comparison c = compare_images(e, a, Backend::cpu, Ssim::compute);
  const Image d = diff_image(e, a, c);
  ASSERT_EQ(d.width, 8);
  ASSERT_EQ(d.height, 6);
  ASSERT_EQ(d.channels, 3);
  ASSERT_EQ(d.depth, Depth::U8);
  const auto px = [&](int x, int y) {
    const std::uint8_t* p = d.samples<std::uint8_t>() + (y * 8 + x) * 3;
    return std::vector<int>{p[0], p[1], p[2]};
  };
  EXPECT_EQ(px(2, 2), (std::vector<int>{255, 255, 0}));
  EXPECT_EQ(px(4, 3), (std::vector<int>{255, 0, 0}));
  const std::vector<int> cyan = {0, 255, 255}, dim = {85, 85, 85};
  // The box: x 2..4, y 2..3, drawn one pixel outside it.
  for (int x = 1; x <= 5; ++x) {
    EXPECT_EQ(px(x, 1), cyan) << x;
    EXPECT_EQ(px(x, 4), cyan) << x;
  }
  for (int y = 1; y <= 4; ++y) {
    EXPECT_EQ(px(1, y), cyan) << y;
    EXPECT_EQ(px(5, y), cyan) << y;
  }
  for (const auto& [x, y] : {std::pair{0, 0}, {3, 2}, {2, 3}, {7, 5}, {6, 2}, {3, 0}}) EXPECT_EQ(px(x, y), dim);
}

TEST(CompareDiffImage, TheBoxIsClippedAtTheEdgeAndNeverCoversADifference) {
  const Image e = random_image(5, 4, 1, Depth::U8, 9);
  Image a = e;
  set_sample(a, 0, 0, 0, (a.samples<std::uint8_t>()[0] + 9) % 256);
  const Image d = diff_image(e, a, compare_images(e, a, Backend::cpu, Ssim::compute));
  unsigned char rgb[3];
  diff_colour(9, 255, rgb);
  EXPECT_EQ(d.data[0], rgb[0]);
  EXPECT_EQ(d.data[1], rgb[1]);
  EXPECT_EQ(d.data[2], rgb[2]);
  EXPECT_GT(rgb[1], 0);
  EXPECT_LT(rgb[1], 255);
  for (const auto& [x, y] : {std::pair{1, 0}, {1, 1}, {0, 1}})
    EXPECT_EQ(d.data[(y * 5 + x) * 3 + 1], 255) << x << "," << y;
}

#if GPUIMG_WITH_OPENCV
// SSIM from the paper with OpenCV: Gaussian-weighted local statistics
// (11x11, sigma 1.5, edges replicated), the SSIM map, its mean per channel.
std::vector<double> opencv_ssim(const Image& ia, const Image& ib) {
  // Scalar::all: a plain double added to a multi-channel Mat reaches its first channel only.
  const double L = max_sample(ia.depth);
  const cv::Scalar c1 = cv::Scalar::all((0.01 * L) * (0.01 * L)), c2 = cv::Scalar::all((0.03 * L) * (0.03 * L));
  const cv::Mat a = to_mat64(ia), b = to_mat64(ib);
  const auto blur = [](const cv::Mat& m) {
    cv::Mat out;
    cv::GaussianBlur(m, out, cv::Size(11, 11), 1.5, 1.5, cv::BORDER_REPLICATE);
    return out;
  };
  const cv::Mat ma = blur(a), mb = blur(b);
  const cv::Mat va = blur(a.mul(a)) - ma.mul(ma), vb = blur(b.mul(b)) - mb.mul(mb), cov = blur(a.mul(b)) - ma.mul(mb);
  cv::Mat num = (2 * ma.mul(mb) + c1).mul(2 * cov + c2), den = (ma.mul(ma) + mb.mul(mb) + c1).mul(va + vb + c2), map;
  cv::divide(num, den, map);
  const cv::Scalar mean = cv::mean(map);
  return std::vector<double>(mean.val, mean.val + ia.channels);
}

// The image moved one pixel right, the left column repeated.
Image shifted(const Image& in) {
  Image out = in;
  const std::size_t px = static_cast<std::size_t>(in.channels) * bytes_per_sample(in.depth);
  for (int y = 0; y < in.height; ++y) {
    std::uint8_t* row = out.data.data() + y * in.row_bytes();
    std::copy(in.data.begin() + y * in.row_bytes(), in.data.begin() + (y + 1) * in.row_bytes() - px, row + px);
  }
  return out;
}

TEST(CompareOracle, ShiftedImagesAgreeWithOpenCv) {
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (const auto& [w, h] : {std::pair{1, 1}, {37, 23}, {5, 64}}) {
        const Image a = random_image(w, h, channels, depth, 11 + channels);
        const Image b = w == 1 ? random_image(w, h, channels, depth, 99) : shifted(a);
        SCOPED_TRACE(shape(a));
        const Comparison c = compare_images(a, b, Backend::cpu, Ssim::compute);
        const cv::Mat ma = to_mat64(a), mb = to_mat64(b);
        const double n = static_cast<double>(a.pixel_count()) * channels;
        EXPECT_EQ(c.overall.max_diff, cv::norm(ma, mb, cv::NORM_INF));
        EXPECT_NEAR(c.overall.mae, cv::norm(ma, mb, cv::NORM_L1) / n, 1e-9 * max_sample(depth));
        EXPECT_NEAR(c.overall.rmse, cv::norm(ma, mb, cv::NORM_L2) / std::sqrt(n), 1e-9 * max_sample(depth));
        if (c.overall.max_diff > 0) {
          EXPECT_NEAR(c.overall.psnr, cv::PSNR(ma, mb, max_sample(depth)), 1e-9);
        }
        const std::vector<double> ssim = opencv_ssim(a, b);
        double mean = 0;
        for (int ch = 0; ch < channels; ++ch) {
          EXPECT_NEAR(c.channels[ch].ssim, ssim[ch], 1e-9) << "channel " << ch;
          mean += ssim[ch] / channels;
        }
        EXPECT_NEAR(c.overall.ssim, mean, 1e-9);
      }
}
#endif

}  // namespace
}  // namespace gpuimg::test
