// Inputs of several frames: an animated GIF and a multi-page TIFF, built
// here frame by frame, so each frame's pixels are known without a decoder.
// Refused naming the count unless --frame picks one; the frame picked is
// the one decoded, drawn over those before it as an animation shows it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "crafted_files.hpp"
#include "error_text.hpp"
#include "frame_options.hpp"
#include "run_binary.hpp"
#if GPUIMG_WITH_TIFF
#include "tiff_files.hpp"
#endif

namespace gpuimg::test {
namespace {

constexpr std::uint16_t kW = 7, kH = 3;  // off every tile grid

// Frame k of the test GIF covers the screen but for frame 2, which covers
// only its top-left 2x2 pixels: the rest shows frame 1 (no disposal).
Bytes frame_indices(int k, int w, int h) {
  Bytes out;
  for (int i = 0; i < w * h; ++i) out.push_back(static_cast<std::uint8_t>((i + k) % 4));
  return out;
}

std::vector<GifFrame> three_frames() {
  return {{0, 0, kW, kH, gif_lzw(frame_indices(0, kW, kH), 2)},
          {0, 0, kW, kH, gif_lzw(frame_indices(1, kW, kH), 2)},
          {0, 0, 2, 2, gif_lzw(frame_indices(2, 2, 2), 2)}};
}

// What frame `k` of three_frames() shows, RGBA.
Image expected_gif_frame(int k) {
  Image img(kW, kH, 4, Depth::U8);
  const Bytes base = frame_indices(k == 2 ? 1 : k, kW, kH), top = frame_indices(2, 2, 2);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const std::uint8_t index = k == 2 && x < 2 && y < 2 ? top[y * 2 + x] : base[y * kW + x];
      std::copy_n(kGifColours[index].begin(), 4, img.data.begin() + (y * kW + x) * 4);
    }
  return img;
}

TEST(MultiFrame, AnimatedGifIsRefusedNamingItsFrameCount) {
  TempDir dir;
  save(dir.file("anim.gif"), animated_gif(kW, kH, three_frames()));
  const RunResult r = run_binary({dir.file("anim.gif"), dir.file("out.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + dir.file("anim.gif") +
                       ": GIF of 3 frames; gpuimg reads one: pick it with --frame N (0 to 2)\n");
  EXPECT_FALSE(fs::exists(dir / "out.png"));
}

TEST(MultiFrame, FrameNPicksThatFrameDrawnOverTheOnesBefore) {
  TempDir dir;
  const Bytes gif = animated_gif(kW, kH, three_frames());
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    EXPECT_TRUE(same_samples(expected_gif_frame(k), decode_image_bytes("anim.gif", gif, frame(k))));
    save(dir.file("anim.gif"), gif);
    const RunResult r = run_binary({dir.file("anim.gif"), "--frame", std::to_string(k), dir.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(same_samples(expected_gif_frame(k), read_image(dir.file("out.png"))));
  }
}

// -v names the frame that --frame picked on the line that describes the
// input; without --frame there is no frame to name.
TEST(MultiFrame, VerboseNamesTheFramePicked) {
  TempDir dir;
  save(dir.file("anim.gif"), animated_gif(kW, kH, three_frames()));
  const RunResult picked =
      run_binary({dir.file("anim.gif"), "--frame", "2", "-v", "--device", "cpu", dir.file("out.png")});
  ASSERT_EQ(picked.status, 0) << picked.err;
  EXPECT_NE(picked.err.find("gpuimg: " + dir.file("anim.gif") + ": " + std::to_string(kW) + "x"), std::string::npos)
      << picked.err;
  EXPECT_NE(picked.err.find(", frame 2, decoded in "), std::string::npos) << picked.err;
  save(dir.file("one.gif"), animated_gif(kW, kH, {three_frames()[0]}));
  const RunResult plain = run_binary({dir.file("one.gif"), "-v", "--device", "cpu", dir.file("out.png")});
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(plain.err.find(", frame "), std::string::npos) << plain.err;
  EXPECT_NE(plain.err.find(", decoded in "), std::string::npos) << plain.err;
}

TEST(MultiFrame, OneFrameGifReadsWithOrWithoutFrameZero) {
  const Bytes gif = animated_gif(kW, kH, {three_frames()[0]});
  EXPECT_TRUE(same_samples(expected_gif_frame(0), decode_image_bytes("a.gif", gif)));
  EXPECT_TRUE(same_samples(expected_gif_frame(0), decode_image_bytes("a.gif", gif, frame(0))));
}

TEST(MultiFrame, FramePastTheLastIsRefusedWithTheRange) {
  const Bytes gif = animated_gif(kW, kH, three_frames());
  EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.gif", gif, frame(3)); }),
            "a.gif: --frame 3: the GIF has 3 frames (0 to 2)");
  TempDir dir;
  write_image(dir.file("one.png"), random_image(1, 1, 2, Depth::U16, 3));
  const RunResult r = run_binary({dir.file("one.png"), "--frame", "1", dir.file("out.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + dir.file("one.png") + ": --frame 1: the PNG has 1 frame (0)\n");
}

TEST(MultiFrame, FrameIsANonNegativeInteger) {
  TempDir dir;
  write_image(dir.file("one.png"), random_image(1, 1, 1, Depth::U8, 3));
  for (const std::string bad : {"-1", "1.5", "", "x"}) {
    const RunResult r = run_binary({dir.file("one.png"), "--frame", bad, dir.file("out.png")});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find("--frame"), std::string::npos) << r.err;
  }
}

// Each file of a batch is judged alone: the animated one fails naming its
// frames, the others are written.
TEST(MultiFrame, BatchReportsEachAnimatedFile) {
  TempDir dir;
  fs::create_directory(dir / "in");
  save(dir.file("in/anim.gif"), animated_gif(kW, kH, three_frames()));
  write_image(dir.file("in/still.png"), random_image(1, 5, 3, Depth::U8, 4));
  const RunResult r = run_binary({dir.file("in") + "/", "--device", "cpu", dir.file("out") + "/"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("in/anim.gif: GIF of 3 frames; gpuimg reads one: pick it with --frame N (0 to 2)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::exists(dir / "out" / "still.png"));
  EXPECT_FALSE(fs::exists(dir / "out" / "anim.png"));
}

#if GPUIMG_WITH_TIFF
// Three pages of different shapes, depths and channel counts.
std::vector<Image> tiff_pages() {
  return {random_image(kW, kH, 1, Depth::U8, 1), random_image(1, 9, 3, Depth::U16, 2),
          random_image(5, 1, 4, Depth::U8, 3)};
}

Bytes multi_page_tiff(const std::vector<Image>& pages) {
  std::vector<TiffPage> out;
  for (const Image& img : pages) {
    TiffSpec s;
    s.width = static_cast<std::uint32_t>(img.width);
    s.height = static_cast<std::uint32_t>(img.height);
    s.bits = img.depth == Depth::U16 ? 16 : 8;
    s.samples = static_cast<std::uint16_t>(img.channels);
    s.photometric = img.channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    out.push_back({s, tiff_planes(img, false)});
  }
  return tiff_bytes(out);
}

TEST(MultiFrame, MultiPageTiffIsRefusedNamingItsPageCount) {
  EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("p.tif", multi_page_tiff(tiff_pages())); }),
            "p.tif: TIFF of 3 pages; gpuimg reads one: pick it with --frame N (0 to 2)");
  EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("p.tif", multi_page_tiff(tiff_pages()), frame(7)); }),
            "p.tif: --frame 7: the TIFF has 3 pages (0 to 2)");
}

TEST(MultiFrame, FrameNPicksThatTiffPage) {
  TempDir dir;
  const std::vector<Image> pages = tiff_pages();
  save(dir.file("p.tif"), multi_page_tiff(pages));
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE("page " + std::to_string(k));
    const RunResult r = run_binary({dir.file("p.tif"), "--frame", std::to_string(k), "--invert", "--device", "cpu",
                                    dir.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    write_image(dir.file("page.png"), pages[k]);
    ASSERT_EQ(run_binary({dir.file("page.png"), "--invert", "--device", "cpu", dir.file("want.png")}).status, 0);
    EXPECT_TRUE(same_samples(read_image(dir.file("want.png")), read_image(dir.file("out.png"))));
  }
}
#endif

}  // namespace
}  // namespace gpuimg::test
