// Animated WebP, made by libwebpmux (webp_files.hpp): refused naming its frame count unless --frame
// picks one, as a GIF is; frame N is the canvas as the animation shows it.
// (Animated PNG: apng_frames_test.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apng_files.hpp"
#include "error_text.hpp"
#include "frame_options.hpp"
#include "run_binary.hpp"
#include "webp_files.hpp"

namespace gpuimg::test {
namespace {

// Opaque frames of the canvas size, lossless: the animation shows frame k
// exactly as given, whatever sub-rectangles the encoder chose to store.
std::vector<Image> webp_frames() {
  std::vector<Image> frames;
  for (int k = 0; k < 3; ++k) {
    Image img = random_image(9, 5, 4, Depth::U8, 10 + k);
    for (std::size_t i = 3; i < img.data.size(); i += 4) img.data[i] = 255;
    // Frame 2 repeats frame 1 but for its first row, so the encoder stores a part.
    if (k == 2) std::copy(frames[1].data.begin() + 9 * 4, frames[1].data.end(), img.data.begin() + 9 * 4);
    frames.push_back(img);
  }
  return frames;
}

TEST(AnimatedWebp, IsRefusedNamingItsFrameCount) {
  TempDir dir;
  save(dir.file("anim.webp"), animated_webp(webp_frames()));
  const RunResult r = run_binary({dir.file("anim.webp"), dir.file("out.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + dir.file("anim.webp") +
                       ": WebP of 3 frames; gpuimg reads one: pick it with --frame N (0 to 2)\n");
  EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.webp", animated_webp(webp_frames()), frame(3)); }),
            "a.webp: --frame 3: the WebP has 3 frames (0 to 2)");
}

TEST(AnimatedWebp, FrameNIsTheCanvasAsTheAnimationShowsIt) {
  TempDir dir;
  const std::vector<Image> frames = webp_frames();
  save(dir.file("anim.webp"), animated_webp(frames));
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const RunResult r = run_binary({dir.file("anim.webp"), "--frame", std::to_string(k), "--device", "cpu",
                                    dir.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(same_samples(frames[static_cast<std::size_t>(k)], read_image(dir.file("out.png"))));
  }
}

TEST(AnimatedWebp, BatchReportsEachAnimatedFile) {
  TempDir dir;
  fs::create_directory(dir / "in");
  save(dir.file("in/anim.webp"), animated_webp(webp_frames()));
  std::vector<ApngFrameSpec> apng(4);
  for (ApngFrameSpec& f : apng) f.pixels = random_image(2, 2, 3, Depth::U8, 5);
  save(dir.file("in/anim.png"), make_apng(apng));
  write_image(dir.file("in/still.webp"), random_image(3, 4, 3, Depth::U8, 6));
  const RunResult r = run_binary({dir.file("in") + "/", "--device", "cpu", dir.file("out") + "/"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("in/anim.webp: WebP of 3 frames; gpuimg reads one: pick it with --frame N (0 to 2)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("in/anim.png: animated PNG of 4 frames;"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "still.webp"));
}

}  // namespace
}  // namespace gpuimg::test
