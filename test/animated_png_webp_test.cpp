// Animated PNG (an acTL chunk) and animated WebP, built here: refused
// naming their frame count unless --frame picks one, as a GIF is. An
// animated WebP's frame N is the canvas as the animation shows it; of an
// APNG, the default image (frame 0) alone is read.
#include <gtest/gtest.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include <memory>
#include <string>
#include <vector>

#include "crafted_files.hpp"
#include "error_text.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

ReadOptions frame(int k) {
  ReadOptions opts;
  opts.frame = k;
  return opts;
}

std::uint32_t be32(const Bytes& b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}

// An fcTL for a frame covering the whole w x h image, sequence number `seq`.
Bytes fctl(std::uint32_t seq, std::uint32_t w, std::uint32_t h) {
  Bytes d;
  for (const std::uint32_t v : {seq, w, h, 0u, 0u}) put_be32(d, v);
  d.insert(d.end(), {0, 1, 0, 10, 0, 0});  // delay 1/10 s, dispose none, blend source
  return d;
}

// The PNG gpuimg writes for `first`, made an APNG of `frames` frames: the
// default image is the first, each later one a copy of its IDAT data as
// fdAT (the pixels do not matter: only the default image is read).
// `default_in_animation` false: the default image is shown by viewers
// without APNG support alone, and the animation's frames all follow it.
Bytes apng(const Image& first, std::uint32_t frames, bool default_in_animation) {
  TempDir dir;
  write_image(dir.file("first.png"), first);
  const Bytes png = load(dir.file("first.png"));
  const auto w = static_cast<std::uint32_t>(first.width), h = static_cast<std::uint32_t>(first.height);
  Bytes out(png.begin(), png.begin() + 8);
  Bytes idat;
  std::uint32_t seq = 0;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t length = be32(png, at);
    const std::string type(png.begin() + static_cast<std::ptrdiff_t>(at + 4), png.begin() + static_cast<std::ptrdiff_t>(at + 8));
    const Bytes data(png.begin() + static_cast<std::ptrdiff_t>(at + 8), png.begin() + static_cast<std::ptrdiff_t>(at + 8 + length));
    at += 12 + length;
    if (type == "IDAT") {
      if (idat.empty() && default_in_animation) put_png_chunk(out, "fcTL", fctl(seq++, w, h));
      idat.insert(idat.end(), data.begin(), data.end());
    }
    if (type == "IEND") {
      for (std::uint32_t k = default_in_animation ? 1 : 0; k < frames; ++k) {
        put_png_chunk(out, "fcTL", fctl(seq++, w, h));
        Bytes fdat;
        put_be32(fdat, seq++);
        fdat.insert(fdat.end(), idat.begin(), idat.end());
        put_png_chunk(out, "fdAT", fdat);
      }
    }
    put_png_chunk(out, type, data);
    if (type == "IHDR") {
      Bytes actl;
      put_be32(actl, frames);
      put_be32(actl, 0);  // loop forever
      put_png_chunk(out, "acTL", actl);
    }
  }
  return out;
}

TEST(AnimatedPng, IsRefusedNamingItsFrameCount) {
  const Image first = random_image(5, 3, 4, Depth::U8, 1);
  EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.png", apng(first, 3, true)); }),
            "a.png: animated PNG of 3 frames; gpuimg reads its default image alone (frame 0; libpng composes no "
            "APNG frames): pick it with --frame 0");
}

TEST(AnimatedPng, FrameZeroIsTheDefaultImage) {
  for (const bool in_animation : {true, false}) {
    const Image first = random_image(7, 2, 3, Depth::U16, 2);
    SCOPED_TRACE(in_animation ? "default image is frame 0" : "default image outside the animation");
    EXPECT_TRUE(same_samples(first, decode_image_bytes("a.png", apng(first, 2, in_animation), frame(0))));
  }
}

// A default image outside the animation counts as a frame of its own: 3
// in the animation, 4 in all.
TEST(AnimatedPng, LaterFramesAreRefusedSayingOnlyTheDefaultImageIsRead) {
  const Image first = random_image(1, 1, 1, Depth::U8, 3);
  for (const int k : {1, 2, 5}) {
    EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.png", apng(first, 3, false), frame(k)); }),
              "a.png: animated PNG of 4 frames; gpuimg reads its default image alone (frame 0; libpng composes no "
              "APNG frames): pick it with --frame 0");
  }
}

// A PNG of one frame in an acTL is no animation: read as any PNG.
TEST(AnimatedPng, OneFrameApngReadsAsAStillImage) {
  const Image first = random_image(3, 3, 2, Depth::U8, 4);
  EXPECT_TRUE(same_samples(first, decode_image_bytes("a.png", apng(first, 1, true))));
}

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

Bytes animated_webp(const std::vector<Image>& frames) {
  WebPAnimEncoderOptions options;
  EXPECT_TRUE(WebPAnimEncoderOptionsInit(&options));
  const std::unique_ptr<WebPAnimEncoder, void (*)(WebPAnimEncoder*)> encoder(
      WebPAnimEncoderNew(frames[0].width, frames[0].height, &options), WebPAnimEncoderDelete);
  WebPConfig config;
  EXPECT_TRUE(WebPConfigInit(&config));
  config.lossless = 1;
  int timestamp = 0;
  for (const Image& img : frames) {
    WebPPicture picture;
    EXPECT_TRUE(WebPPictureInit(&picture));
    picture.use_argb = 1;
    picture.width = img.width;
    picture.height = img.height;
    EXPECT_TRUE(WebPPictureImportRGBA(&picture, img.data.data(), img.width * 4));
    EXPECT_TRUE(WebPAnimEncoderAdd(encoder.get(), &picture, timestamp, &config));
    WebPPictureFree(&picture);
    timestamp += 100;
  }
  EXPECT_TRUE(WebPAnimEncoderAdd(encoder.get(), nullptr, timestamp, nullptr));
  WebPData data;
  WebPDataInit(&data);
  EXPECT_TRUE(WebPAnimEncoderAssemble(encoder.get(), &data));
  Bytes out(data.bytes, data.bytes + data.size);
  WebPDataClear(&data);
  return out;
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
  save(dir.file("in/anim.png"), apng(random_image(2, 2, 3, Depth::U8, 5), 4, true));
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
