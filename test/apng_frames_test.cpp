// Animated PNG frames (lib/io/apng.hpp): against Pillow's APNG reader on
// the files scripts/make_apng_goldens.py made (test/data/apng/), and
// against a plain reference loop for what Pillow does not do exactly
// (OVER through partial alpha) or at all (16-bit colour).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "apng_files.hpp"
#include "error_text.hpp"
#include "frame_options.hpp"
#include "image_compare.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

namespace fs = std::filesystem;

const std::string kDir = std::string(GPUIMG_TEST_DATA_DIR) + "/apng/";

// Pillow composes gray and RGB animations without alpha, a cleared area
// black: gpuimg's frame there has the same colour, alpha 0 or opaque.
testing::AssertionResult same_as_pillow(const Image& pillow, const Image& ours) {
  if (pillow.channels == ours.channels) return same_samples(pillow, ours);
  if (ours.channels != pillow.channels + 1) return testing::AssertionFailure() << shape(pillow) << " vs " << shape(ours);
  const int top = max_sample(ours.depth);
  for (std::size_t p = 0; p < ours.pixel_count(); ++p) {
    const int alpha = sample(ours, p * ours.channels + pillow.channels);
    if (alpha != 0 && alpha != top) return testing::AssertionFailure() << "alpha " << alpha << " at pixel " << p;
    for (int c = 0; c < pillow.channels; ++c)
      if (sample(ours, p * ours.channels + c) != sample(pillow, p * pillow.channels + c))
        return testing::AssertionFailure() << "pixel " << p << " channel " << c;
  }
  return testing::AssertionSuccess();
}

TEST(ApngFrames, MatchPillowFrameForFrame) {
  for (const std::string name : {"rgba", "rgb", "gray_alpha", "gray", "palette", "gray16", "default_apart"}) {
    const Bytes file = load(kDir + name + ".png");
    int frames = 0;
    for (; fs::exists(kDir + name + "." + std::to_string(frames) + ".png"); ++frames) {
      SCOPED_TRACE(name + " frame " + std::to_string(frames));
      const Image ours = decode_image_bytes(name, file, frame(frames));
      EXPECT_TRUE(same_as_pillow(read_image(kDir + name + "." + std::to_string(frames) + ".png"), ours));
      EXPECT_TRUE(frames == 0 || ours.has_alpha());
    }
    ASSERT_GE(frames, 3) << name;
    EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes(name, file); }),
              name + ": animated PNG of " + std::to_string(frames) +
                  " frames; gpuimg reads one: pick it with --frame N (0 to " + std::to_string(frames - 1) + ")");
  }
}

// The APNG specification's drawing, written plainly: every pixel of the
// canvas in doubles, OVER as Porter and Duff's, rounded half up once.
struct ReferenceCanvas {
  int width, height, channels;
  double top;
  std::vector<double> px;

  ReferenceCanvas(int w, int h, int c, Depth d) : width(w), height(h), channels(c), top(max_sample(d)), px(std::size_t(w) * h * c, 0) {}

  double* at(std::uint32_t x, std::uint32_t y) { return px.data() + (std::size_t(y) * width + x) * channels; }

  void draw(const ApngFrameSpec& f) {
    for (int y = 0; y < f.pixels.height; ++y)
      for (int x = 0; x < f.pixels.width; ++x) {
        double* d = at(f.x + x, f.y + y);
        double s[4];
        for (int c = 0; c < channels; ++c) s[c] = sample(f.pixels, (std::size_t(y) * f.pixels.width + x) * channels + c);
        const double sa = s[channels - 1], da = d[channels - 1];
        if (f.blend == 0 || sa == top) {
          std::copy(s, s + channels, d);
        } else if (sa > 0) {
          // Weights in units of 1/top²: exact in doubles, so ties stay ties.
          const double ws = sa * top, wd = da * (top - sa), sum = ws + wd;
          for (int c = 0; c < channels - 1; ++c) d[c] = std::floor((s[c] * ws + d[c] * wd) / sum + 0.5);
          d[channels - 1] = std::floor(sum / top + 0.5);
        }
      }
  }

  void fill(const ApngFrameSpec& f, const std::vector<double>& from) {
    for (int y = 0; y < f.pixels.height; ++y)
      for (int x = 0; x < f.pixels.width; ++x)
        for (int c = 0; c < channels; ++c)
          at(f.x + x, f.y + y)[c] = from.empty() ? 0 : from[(std::size_t(f.y + y) * width + f.x + x) * channels + c];
  }

  // Frames 0 to last drawn, each disposed of before the next.
  static ReferenceCanvas of(const std::vector<ApngFrameSpec>& frames, std::size_t last) {
    const Image& first = frames[0].pixels;
    ReferenceCanvas canvas(first.width, first.height, first.channels, first.depth);
    for (std::size_t i = 0; i <= last; ++i) {
      const std::vector<double> before = canvas.px;
      canvas.draw(frames[i]);
      if (i == last) break;
      if (frames[i].dispose == 1 || (frames[i].dispose == 2 && i == 0)) canvas.fill(frames[i], {});
      if (frames[i].dispose == 2 && i > 0) canvas.fill(frames[i], before);
    }
    return canvas;
  }

  Image image(Depth depth) const {
    Image out(width, height, channels, depth);
    for (std::size_t i = 0; i < px.size(); ++i) {
      if (depth == Depth::U8) out.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(px[i]);
      else out.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(px[i]);
    }
    return out;
  }
};

// Random frames on a w x h canvas: the first covering it, the rest random
// rectangles inside it, every dispose and blend in turn; alpha 0 and opaque
// among the random ones.
std::vector<ApngFrameSpec> random_frames(int w, int h, int channels, Depth depth, std::uint32_t seed) {
  std::vector<ApngFrameSpec> frames;
  std::uint32_t r = seed;
  const auto next = [&](int n) {
    r = r * 1103515245u + 12345u;
    return static_cast<int>((r >> 8) % static_cast<std::uint32_t>(n));
  };
  for (int k = 0; k < 7; ++k) {
    ApngFrameSpec f;
    const int fw = k == 0 ? w : 1 + next(w), fh = k == 0 ? h : 1 + next(h);
    f.x = static_cast<std::uint32_t>(k == 0 ? 0 : next(w - fw + 1));
    f.y = static_cast<std::uint32_t>(k == 0 ? 0 : next(h - fh + 1));
    f.pixels = random_image(fw, fh, channels, depth, seed * 10 + static_cast<std::uint32_t>(k));
    for (std::size_t p = 0; p < f.pixels.pixel_count(); p += 3) {
      const std::size_t a = p * static_cast<std::size_t>(channels) + static_cast<std::size_t>(channels) - 1;
      const int value = p % 2 ? 0 : max_sample(depth);
      if (depth == Depth::U8) f.pixels.samples<std::uint8_t>()[a] = static_cast<std::uint8_t>(value);
      else f.pixels.samples<std::uint16_t>()[a] = static_cast<std::uint16_t>(value);
    }
    f.dispose = static_cast<std::uint8_t>(k % 3);
    f.blend = static_cast<std::uint8_t>(k == 0 ? 0 : (k / 3 + k) % 2);
    frames.push_back(std::move(f));
  }
  return frames;
}

TEST(ApngFrames, MatchAReferenceLoopAtEveryDepthAndAwkwardSize) {
  std::uint32_t seed = 1;
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const int channels : {2, 4})
      for (const auto& [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {1, 9}, {9, 1}, {13, 5}, {31, 17}}) {
        const std::vector<ApngFrameSpec> frames = random_frames(w, h, channels, depth, seed++);
        const Bytes file = make_apng(frames);
        for (std::size_t k = 1; k < frames.size(); ++k) {
          SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " " + describe(channels, depth) + " frame " +
                       std::to_string(k));
          EXPECT_TRUE(same_samples(ReferenceCanvas::of(frames, k).image(depth),
                                   decode_image_bytes("a.png", file, frame(static_cast<int>(k)))));
        }
      }
}

// Gray and RGB frames gain an opaque alpha past frame 0, which is the
// default image as stored.
TEST(ApngFrames, FramesPastZeroHaveAlpha) {
  for (const int channels : {1, 3}) {
    std::vector<ApngFrameSpec> frames(2);
    frames[0].pixels = random_image(4, 3, channels, Depth::U16, 5);
    frames[1].pixels = random_image(2, 2, channels, Depth::U16, 6);
    frames[1].x = 1;
    const Bytes file = make_apng(frames);
    EXPECT_TRUE(same_samples(frames[0].pixels, decode_image_bytes("a.png", file, frame(0))));
    const Image one = decode_image_bytes("a.png", file, frame(1));
    EXPECT_EQ(one.channels, channels + 1);
    EXPECT_EQ(sample(one, std::size_t(one.channels) * 2 - 1), 65535);  // pixel 1: frame 1's, opaque
  }
}

// A default image outside the animation is frame 0; the animation's first
// frame, frame 1, is drawn on a clear canvas, not over it.
TEST(ApngFrames, DefaultImageApartIsFrameZeroAndNotDrawnOn) {
  const Image apart = random_image(5, 4, 4, Depth::U8, 7);
  std::vector<ApngFrameSpec> frames(2);
  frames[0].pixels = random_image(5, 4, 4, Depth::U8, 8);
  frames[1].pixels = random_image(2, 1, 4, Depth::U8, 9);
  frames[1].x = 3;
  frames[1].y = 3;
  frames[0].dispose = 1;
  const Bytes file = make_apng(frames, &apart);
  EXPECT_TRUE(same_samples(apart, decode_image_bytes("a.png", file, frame(0))));
  EXPECT_TRUE(same_samples(frames[0].pixels, decode_image_bytes("a.png", file, frame(1))));
  EXPECT_TRUE(same_samples(ReferenceCanvas::of(frames, 1).image(Depth::U8), decode_image_bytes("a.png", file, frame(2))));
}

// A PNG of one frame in an acTL is no animation: read as any PNG.
TEST(ApngFrames, OneFrameApngReadsAsAStillImage) {
  std::vector<ApngFrameSpec> frames(1);
  frames[0].pixels = random_image(3, 3, 2, Depth::U8, 4);
  EXPECT_TRUE(same_samples(frames[0].pixels, decode_image_bytes("a.png", make_apng(frames))));
  EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.png", make_apng(frames), frame(1)); }),
            "a.png: --frame 1: the PNG has 1 frame (0)");
}

TEST(ApngFrames, CliPicksAFrameAndRefusesWithoutOne) {
  TempDir dir;
  const std::string anim = dir.file("anim.png");
  save(anim, load(kDir + "rgba.png"));
  RunResult r = run_binary({anim, "--frame", "2", "--device", "cpu", dir.file("out.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(same_samples(read_image(kDir + "rgba.2.png"), read_image(dir.file("out.png"))));
  r = run_binary({anim, "--device", "cpu", dir.file("none.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + anim + ": animated PNG of 6 frames; gpuimg reads one: pick it with --frame N (0 to 5)\n");
  r = run_binary({anim, "--frame", "6", "--device", "cpu", dir.file("past.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + anim + ": --frame 6: the animated PNG has 6 frames (0 to 5)\n");
  EXPECT_FALSE(fs::exists(dir.file("none.png")) || fs::exists(dir.file("past.png")));
}

}  // namespace
}  // namespace gpuimg::test
