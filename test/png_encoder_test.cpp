// The PNG writer (lib/io/png_encoder.cpp), read back by libpng (gpuimg's
// reader, which checks every CRC and the Adler-32) and, with OpenCV, by
// OpenCV: every filter, strategy and level, every layout, images cut into
// several segments, and rows longer than a segment.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codec.hpp"
#include "png_encoder.hpp"
#include "random_image.hpp"
#include "temp_dir.hpp"
#if GPUIMG_WITH_OPENCV
#include <opencv2/imgcodecs.hpp>
#endif

namespace gpuimg::test {
namespace {

std::vector<PngSettings> every_setting() {
  std::vector<PngSettings> all;
  for (PngFilter f : {PngFilter::none, PngFilter::sub, PngFilter::up, PngFilter::average, PngFilter::paeth,
                      PngFilter::adaptive})
    for (PngStrategy s : {PngStrategy::rle, PngStrategy::filtered, PngStrategy::lz77, PngStrategy::huffman})
      all.push_back({f, s, 6});
  for (int level : {0, 1, 9}) all.push_back({PngFilter::adaptive, PngStrategy::lz77, level});
  return all;
}

Image decoded(const Bytes& png, const TempDir& dir) {
  const std::string path = dir.file("t.png");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(png.data()), png.size());
  return read_image(path);
}

std::string describe_setting(const PngSettings& s) {
  return "filter " + std::to_string(static_cast<int>(s.filter)) + ", strategy " +
         std::to_string(static_cast<int>(s.strategy)) + ", level " + std::to_string(s.level);
}

// 260x700 is 2 to 8 segments of 512 KiB, except at 1 channel of 8 bits.
// The default setting in every layout; every setting at 1, 3 and 8 bytes a
// pixel, the filters' smallest, odd and largest reach back.
TEST(PngEncoder, EverySettingAndLayoutReadsBackExactly) {
  TempDir dir;
  auto check = [&](const PngSettings& s, int channels, Depth d) {
    const Image img = random_image(260, 700, channels, d, 10 * channels + static_cast<int>(d));
    SCOPED_TRACE(describe_setting(s) + ", " + shape(img));
    const Image back = decoded(encode_png(img, s), dir);
    ASSERT_EQ(back.channels, channels);
    ASSERT_EQ(back.depth, d);
    ASSERT_EQ(back.data, img.data);
  };
  for (int channels = 1; channels <= 4; ++channels)
    for (Depth d : {Depth::U8, Depth::U16}) check({}, channels, d);
  for (const PngSettings& s : every_setting()) {
    check(s, 1, Depth::U8);
    check(s, 3, Depth::U8);
    check(s, 4, Depth::U16);
  }
}

// A row of 70000 RGBA 16-bit pixels is 560 KiB: each row is a segment.
TEST(PngEncoder, RowsLongerThanASegment) {
  TempDir dir;
  const Image img = random_image(70000, 3, 4, Depth::U16, 5);
  for (PngStrategy s : {PngStrategy::rle, PngStrategy::lz77}) {
    const Image back = decoded(encode_png(img, {PngFilter::adaptive, s, 1}), dir);
    EXPECT_EQ(back.data, img.data);
  }
}

// The cut into segments depends on the image alone: the same bytes every time.
TEST(PngEncoder, SameBytesEveryTime) {
  const Image img = random_image(260, 700, 3, Depth::U8, 3);
  EXPECT_EQ(encode_png(img, {}), encode_png(img, {}));
}

TEST(PngLevel, EveryLevelReadsBackExactlyAndZeroStores) {
  TempDir dir;
  const Image img = random_image(260, 700, 3, Depth::U8, 8);
  for (int level = WriteOptions::kPngRunLength; level <= 9; ++level) {
    SCOPED_TRACE("level " + std::to_string(level));
    WriteOptions opts;
    opts.png_level = level;
    write_image(dir.file("l.png"), img, opts);
    EXPECT_EQ(read_image(dir.file("l.png")).data, img.data);
    if (level == 0) {
      EXPECT_GT(std::filesystem::file_size(dir.file("l.png")), img.data.size());
    }
  }
}

// The reason for the option: LZ77 finds the repeats of drawn graphics that
// run-length coding cannot (data/scene.png: 99 KB at level 9, 121 KB by default).
TEST(PngLevel, LevelNineIsSmallerForGraphics) {
  TempDir dir;
  const Image scene = read_image(std::string(GPUIMG_DATA_DIR) + "/scene.png");
  WriteOptions nine;
  nine.png_level = 9;
  write_image(dir.file("default.png"), scene);
  write_image(dir.file("nine.png"), scene, nine);
  EXPECT_LT(std::filesystem::file_size(dir.file("nine.png")), std::filesystem::file_size(dir.file("default.png")));
}

#if GPUIMG_WITH_OPENCV
// An independent reader: OpenCV's libpng build (it has no gray+alpha).
TEST(PngEncoder, OpenCvReadsEverySetting) {
  TempDir dir;
  for (const PngSettings& s : every_setting())
    for (int channels : {1, 3, 4}) {
      const Image img = random_image(260, 700, channels, channels == 4 ? Depth::U16 : Depth::U8, 20 + channels);
      SCOPED_TRACE(describe_setting(s) + ", " + shape(img));
      const Bytes png = encode_png(img, s);
      const cv::Mat file(1, static_cast<int>(png.size()), CV_8U, const_cast<std::uint8_t*>(png.data()));
      const cv::Mat m = cv::imdecode(file, cv::IMREAD_UNCHANGED);
      ASSERT_FALSE(m.empty());
      ASSERT_EQ(m.channels(), channels);
      ASSERT_EQ(m.elemSize1(), static_cast<std::size_t>(bytes_per_sample(img.depth)));
      // OpenCV orders colour channels BGR(A): compare channel by channel.
      const int order[4][4] = {{0}, {0, 1}, {2, 1, 0}, {2, 1, 0, 3}};
      for (int y = 0; y < img.height; y += 37)
        for (int x = 0; x < img.width; ++x)
          for (int c = 0; c < channels; ++c) {
            const std::size_t i = (static_cast<std::size_t>(y) * img.width + x) * channels + c;
            const int ours = sample(img, i);
            const int theirs = img.depth == Depth::U8 ? m.ptr<std::uint8_t>(y)[x * channels + order[channels - 1][c]]
                                                      : m.ptr<std::uint16_t>(y)[x * channels + order[channels - 1][c]];
            ASSERT_EQ(theirs, ours) << "x " << x << " y " << y << " c " << c;
          }
    }
}
#endif

}  // namespace
}  // namespace gpuimg::test
