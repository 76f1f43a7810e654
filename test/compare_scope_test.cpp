// What a comparison looks at (lib/compare/scope.hpp): ignored rectangles and
// masks against a plain loop that counts the differing pixels they leave
// in, on random pairs of awkward sizes, both depths and every channel count;
// alpha, opaque or not, on one side or both; the refused rectangles.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "comparison.hpp"
#include "error.hpp"
#include "random_image.hpp"
#include "scope.hpp"

namespace gpuimg::test {
namespace {

Scope scope(std::vector<Rect> ignore, std::string mask, AlphaRule alpha) {
  Scope s;
  s.ignore = std::move(ignore);
  s.mask = std::move(mask);
  s.alpha = alpha;
  return s;
}

bool inside(const std::vector<Rect>& rects, int x, int y) {
  return std::any_of(rects.begin(), rects.end(),
                     [&](const Rect& r) { return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h; });
}

bool black_at(const Image& mask, std::size_t pixel) {
  const int colours = mask.channels == 2 || mask.channels == 4 ? mask.channels - 1 : mask.channels;
  for (int c = 0; c < colours; ++c)
    if (sample(mask, pixel * mask.channels + c) != 0) return false;
  return true;
}

bool left_out_at(const std::vector<Rect>& rects, const Image* mask, int x, int y) {
  return inside(rects, x, y) || (mask && black_at(*mask, static_cast<std::size_t>(y) * mask->width + x));
}

bool leaves_all_out(const Image& e, const std::vector<Rect>& rects, const Image* mask) {
  for (int y = 0; y < e.height; ++y)
    for (int x = 0; x < e.width; ++x)
      if (!left_out_at(rects, mask, x, y)) return false;
  return true;
}

// The oracle: pixels with any differing sample, outside every rectangle and
// where the mask is not black.
std::uint64_t differing_left_in(const Image& e, const Image& a, const std::vector<Rect>& rects, const Image* mask) {
  std::uint64_t n = 0;
  for (int y = 0; y < e.height; ++y)
    for (int x = 0; x < e.width; ++x) {
      const std::size_t p = static_cast<std::size_t>(y) * e.width + x;
      if (left_out_at(rects, mask, x, y)) continue;
      for (int c = 0; c < e.channels; ++c)
        if (sample(e, p * e.channels + c) != sample(a, p * e.channels + c)) {
          ++n;
          break;
        }
    }
  return n;
}

struct Size {
  int w, h;
};
const Size kSizes[] = {{1, 1}, {1, 13}, {17, 1}, {33, 19}, {64, 3}};

TEST(CompareScope, IgnoredRectanglesAndMasksLeaveOutWhatTheOracleLeavesOut) {
  std::uint32_t seed = 1;
  for (const Size s : kSizes)
    for (const Depth depth : {Depth::U8, Depth::U16})
      for (int ch = 1; ch <= 4; ++ch)
        for (int mask_channels : {0, 1, 4}) {
          SCOPED_TRACE(std::to_string(s.w) + "x" + std::to_string(s.h) + " ch " + std::to_string(ch) + " mask " +
                       std::to_string(mask_channels) + (depth == Depth::U8 ? " 8-bit" : " 16-bit"));
          const Image e = random_image(s.w, s.h, ch, depth, seed++);
          const Image a = random_image(s.w, s.h, ch, depth, seed++);
          // Rectangles inside, across the edge and wholly outside the image.
          const std::vector<Rect> rects = {{s.w / 2, s.h / 3, 2, 3}, {s.w - 1, s.h - 1, 100, 100}, {s.w + 5, 0, 1, 1}};
          const Image mask = mask_channels ? random_image(s.w, s.h, mask_channels, Depth::U8, seed++) : Image();
          const Image* m = mask_channels ? &mask : nullptr;
          Image ee = e, aa = a;
          const Scope sc = scope(rects, m ? "mask.png" : "", AlphaRule::compare);
          if (leaves_all_out(e, rects, m)) {  // 1x1, under the rectangle across the corner
            EXPECT_THROW(apply_scope(ee, aa, sc, m), UsageError);
            continue;
          }
          const std::vector<std::string> notes = apply_scope(ee, aa, sc, m);
          const Comparison c = compare_images(ee, aa, Backend::cpu, Ssim::skip);
          EXPECT_EQ(c.overall.differing, differing_left_in(e, a, rects, m));
          ASSERT_EQ(notes.size(), 1u);
          EXPECT_NE(notes[0].find("pixels left out by the ignored rectangles"), std::string::npos) << notes[0];
          EXPECT_EQ(ee.data, e.data);
        }
}

TEST(CompareScope, AChangeInsideTheIgnoredRectanglePasses) {
  const Image e = random_image(40, 30, 3, Depth::U8, 5);
  Image a = e;
  for (int i = 0; i < 3 * 20; ++i) a.data[(10 * 40 + 12) * 3 + i] ^= 0xff;  // 20 pixels of row 10
  Image ee = e, aa = a;
  EXPECT_FALSE(compare_images(ee, aa, Backend::cpu, Ssim::skip).identical());
  apply_scope(ee, aa, scope({{12, 10, 20, 1}}, "", AlphaRule::compare), nullptr);
  EXPECT_TRUE(compare_images(ee, aa, Backend::cpu, Ssim::compute).identical());
  ee = e, aa = a;
  apply_scope(ee, aa, scope({{12, 10, 19, 1}}, "", AlphaRule::compare), nullptr);
  EXPECT_EQ(compare_images(ee, aa, Backend::cpu, Ssim::skip).overall.differing, 1u);
}

TEST(CompareScope, LeavingEveryPixelOutIsRefused) {
  const Image e = random_image(5, 4, 3, Depth::U8, 3);
  Image ee = e, aa = random_image(5, 4, 3, Depth::U8, 4);
  try {
    apply_scope(ee, aa, scope({{0, 0, 3, 4}, {3, 0, 9, 9}}, "", AlphaRule::compare), nullptr);
    ADD_FAILURE() << "compared nothing and passed";
  } catch (const UsageError& err) {
    EXPECT_STREQ(err.what(), "the ignored rectangles leave out every pixel of the 5x4 images: nothing is left to compare");
  }
  // One pixel left in is a comparison.
  ee = e;
  EXPECT_EQ(apply_scope(ee, aa, scope({{0, 0, 3, 4}, {3, 0, 9, 3}}, "", AlphaRule::compare), nullptr).size(), 1u);
}

TEST(CompareScope, AMaskOfAnotherSizeIsRefused) {
  Image e = random_image(8, 8, 3, Depth::U8, 1), a = e;
  const Image mask = random_image(8, 9, 1, Depth::U8, 2);
  EXPECT_THROW(apply_scope(e, a, scope({}, "m.png", AlphaRule::compare), &mask), UsageError);
}

Image with_alpha(const Image& img, int alpha) {
  Image out(img.width, img.height, img.channels + 1, img.depth);
  for (std::size_t p = 0; p < img.pixel_count(); ++p) {
    for (int c = 0; c < img.channels; ++c) {
      const int v = sample(img, p * img.channels + c);
      const std::size_t at = p * out.channels + c;
      if (img.depth == Depth::U8)
        out.samples<std::uint8_t>()[at] = static_cast<std::uint8_t>(v);
      else
        out.samples<std::uint16_t>()[at] = static_cast<std::uint16_t>(v);
    }
    const std::size_t at = p * out.channels + img.channels;
    if (img.depth == Depth::U8)
      out.samples<std::uint8_t>()[at] = static_cast<std::uint8_t>(alpha);
    else
      out.samples<std::uint16_t>()[at] = static_cast<std::uint16_t>(alpha);
  }
  return out;
}

TEST(CompareScope, AnOpaqueAlphaChannelComparesEqualToNone) {
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const int ch : {1, 3}) {
      const Image plain = random_image(13, 7, ch, depth, 9);
      const Image opaque = with_alpha(plain, max_sample(depth));
      Image e = plain, a = opaque;
      std::vector<std::string> notes = apply_scope(e, a, {}, nullptr);
      EXPECT_TRUE(compare_images(e, a, Backend::cpu, Ssim::skip).identical());
      EXPECT_EQ(notes, std::vector<std::string>{"actual's alpha channel is opaque everywhere: compared without it"});
      e = opaque, a = plain;
      notes = apply_scope(e, a, {}, nullptr);
      EXPECT_TRUE(compare_images(e, a, Backend::cpu, Ssim::skip).identical());
      EXPECT_EQ(notes.size(), 1u);
      // One pixel less than opaque: the shapes differ, as before.
      Image translucent = opaque;
      translucent.data[translucent.data.size() - 1] = 0;
      e = plain, a = translucent;
      EXPECT_TRUE(apply_scope(e, a, {}, nullptr).empty());
      EXPECT_FALSE(compare_images(e, a, Backend::cpu, Ssim::skip).mismatch.empty());
      // --alpha ignore compares the colours only, whatever the alpha.
      e = with_alpha(plain, 0), a = translucent;
      apply_scope(e, a, scope({}, "", AlphaRule::ignore), nullptr);
      EXPECT_EQ(e.channels, ch);
      EXPECT_TRUE(compare_images(e, a, Backend::cpu, Ssim::skip).identical());
    }
}

TEST(CompareScope, RectanglesAreFourIntegersWithASize) {
  const Rect r = parse_rect("--ignore:", "400,50,10,10");
  EXPECT_EQ(r.x, 400);
  EXPECT_EQ(r.y, 50);
  EXPECT_EQ(r.w, 10);
  EXPECT_EQ(r.h, 10);
  for (const char* bad :
       {"", "1,2,3", "1,2,3,4,5", "-1,0,1,1", "0,0,0,1", "0,0,1,0", "0,0,1.5,1", "a,0,1,1", "0,0,1,1,"})
    EXPECT_THROW(parse_rect("--ignore:", bad), UsageError) << bad;
  EXPECT_THROW(parse_alpha_rule("--alpha:", "drop"), UsageError);
}

}  // namespace
}  // namespace gpuimg::test
