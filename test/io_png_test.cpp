// PNG layouts gpuimg never writes but must read (palette, tRNS, 1/2/4-bit
// gray, interlaced), made here with libpng directly; and OpenCV as an
// independent reader and writer of what png_codec handles.
#include <gtest/gtest.h>
#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "codec.hpp"
#include "random_image.hpp"
#include "temp_dir.hpp"

#if GPUIMG_WITH_OPENCV
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#endif

namespace gpuimg {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

// A PNG as libpng takes it: samples already packed (low bit depths MSB
// first, 16-bit big-endian), one vector per row.
struct PngSpec {
  int width = 0, height = 0, bit_depth = 8, color_type = PNG_COLOR_TYPE_GRAY;
  bool interlaced = false;
  std::vector<png_color> palette;
  std::vector<png_byte> palette_alpha;  // tRNS for palette images
  const png_color_16* trans_color = nullptr;  // tRNS for gray / RGB images
  std::vector<std::vector<png_byte>> rows;
};

bool write_png(const std::string& path, const PngSpec& s) {
  FILE* fp = std::fopen(path.c_str(), "wb");
  if (!fp) return false;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  std::vector<png_bytep> rows;
  for (const auto& r : s.rows) rows.push_back(const_cast<png_bytep>(r.data()));
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    std::fclose(fp);
    return false;
  }
  png_init_io(png, fp);
  png_set_IHDR(png, info, s.width, s.height, s.bit_depth, s.color_type,
               s.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (!s.palette.empty()) png_set_PLTE(png, info, s.palette.data(), static_cast<int>(s.palette.size()));
  if (!s.palette_alpha.empty() || s.trans_color) {
    png_set_tRNS(png, info, s.palette_alpha.empty() ? nullptr : s.palette_alpha.data(),
                 static_cast<int>(s.palette_alpha.size()), s.trans_color);
  }
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return std::fclose(fp) == 0;
}

// values (each < 2^bits) of one row, packed MSB first as PNG stores them.
std::vector<png_byte> pack(const std::vector<int>& values, int bits) {
  std::vector<png_byte> row((values.size() * bits + 7) / 8);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::size_t bit = i * bits;
    row[bit / 8] |= static_cast<png_byte>(values[i] << (8 - bits - bit % 8));
  }
  return row;
}

std::vector<int> random_values(std::size_t n, int max, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(0, max);
  std::vector<int> v(n);
  for (int& x : v) x = dist(rng);
  return v;
}

std::vector<png_color> test_palette(int n) {
  std::vector<png_color> p(n);
  for (int i = 0; i < n; ++i) {
    p[i] = {static_cast<png_byte>(i * 37), static_cast<png_byte>(255 - i * 11), static_cast<png_byte>(i * i % 256)};
  }
  return p;
}

// Palette images at every bit depth, with tRNS shorter than the palette:
// entries past its end are opaque.
void check_palette(int bits, bool with_trns, bool interlaced) {
  SCOPED_TRACE(std::to_string(bits) + "-bit palette" + (with_trns ? " with tRNS" : "") + (interlaced ? " interlaced" : ""));
  TempDir dir;
  const int w = 9, h = 5, colors = 1 << bits;
  PngSpec s;
  s.width = w;
  s.height = h;
  s.bit_depth = bits;
  s.color_type = PNG_COLOR_TYPE_PALETTE;
  s.interlaced = interlaced;
  s.palette = test_palette(colors);
  if (with_trns) s.palette_alpha = {0, 128};
  const std::vector<int> index = random_values(static_cast<std::size_t>(w) * h, colors - 1, 5 + bits);
  for (int y = 0; y < h; ++y) s.rows.push_back(pack({index.begin() + y * w, index.begin() + (y + 1) * w}, bits));
  ASSERT_TRUE(write_png(dir.file("p.png"), s));

  const Image img = read_image(dir.file("p.png"));
  const int c = with_trns ? 4 : 3;
  ASSERT_EQ(img.channels, c);
  ASSERT_EQ(img.depth, Depth::U8);
  ASSERT_EQ(img.width, w);
  ASSERT_EQ(img.height, h);
  for (std::size_t p = 0; p < index.size(); ++p) {
    const png_color& rgb = s.palette[index[p]];
    EXPECT_EQ(img.data[p * c + 0], rgb.red);
    EXPECT_EQ(img.data[p * c + 1], rgb.green);
    EXPECT_EQ(img.data[p * c + 2], rgb.blue);
    if (with_trns) {
      EXPECT_EQ(img.data[p * c + 3], index[p] < 2 ? s.palette_alpha[index[p]] : 255);
    }
  }
}

TEST(PngVariants, PaletteWithoutTransparencyBecomesRgb) {
  for (int bits : {1, 2, 4, 8}) check_palette(bits, false, false);
}

TEST(PngVariants, PaletteWithTrnsBecomesRgba) {
  for (int bits : {1, 2, 4, 8}) check_palette(bits, true, false);
}

TEST(PngVariants, InterlacedPalette) { check_palette(2, true, true); }

TEST(PngVariants, LowBitGrayIsScaledToEightBit) {
  for (int bits : {1, 2, 4}) {
    for (bool interlaced : {false, true}) {
      SCOPED_TRACE(std::to_string(bits) + "-bit gray" + (interlaced ? " interlaced" : ""));
      TempDir dir;
      const int w = 13, h = 3, max = (1 << bits) - 1;
      PngSpec s;
      s.width = w;
      s.height = h;
      s.bit_depth = bits;
      s.interlaced = interlaced;
      const std::vector<int> v = random_values(static_cast<std::size_t>(w) * h, max, 40 + bits);
      for (int y = 0; y < h; ++y) s.rows.push_back(pack({v.begin() + y * w, v.begin() + (y + 1) * w}, bits));
      ASSERT_TRUE(write_png(dir.file("g.png"), s));
      const Image img = read_image(dir.file("g.png"));
      ASSERT_EQ(img.channels, 1);
      ASSERT_EQ(img.depth, Depth::U8);
      for (std::size_t p = 0; p < v.size(); ++p) ASSERT_EQ(img.data[p], v[p] * 255 / max) << p;
    }
  }
}

TEST(PngVariants, GrayTrnsBecomesAlpha) {
  TempDir dir;
  PngSpec s;
  s.width = 4;
  s.height = 1;
  png_color_16 key{};
  key.gray = 50;
  s.trans_color = &key;
  s.rows = {{50, 51, 0, 50}};
  ASSERT_TRUE(write_png(dir.file("t.png"), s));
  const Image img = read_image(dir.file("t.png"));
  ASSERT_EQ(img.channels, 2);
  EXPECT_EQ(img.data, (std::vector<std::uint8_t>{50, 0, 51, 255, 0, 255, 50, 0}));
}

TEST(PngVariants, SixteenBitRgbTrnsBecomesSixteenBitAlpha) {
  TempDir dir;
  PngSpec s;
  s.width = 2;
  s.height = 1;
  s.bit_depth = 16;
  s.color_type = PNG_COLOR_TYPE_RGB;
  png_color_16 key{};
  key.red = 0x1234;
  key.green = 0x5678;
  key.blue = 0x9abc;
  s.trans_color = &key;
  s.rows = {{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbd}};
  ASSERT_TRUE(write_png(dir.file("t16.png"), s));
  const Image img = read_image(dir.file("t16.png"));
  ASSERT_EQ(img.channels, 4);
  ASSERT_EQ(img.depth, Depth::U16);
  const std::uint16_t* v = img.samples<std::uint16_t>();
  EXPECT_EQ(std::vector<std::uint16_t>(v, v + 8),
            (std::vector<std::uint16_t>{0x1234, 0x5678, 0x9abc, 0, 0x1234, 0x5678, 0x9abd, 65535}));
}

TEST(PngVariants, InterlacedEightAndSixteenBitAreExact) {
  struct Layout {
    int color_type, channels, bit_depth;
  };
  for (const Layout& l : {Layout{PNG_COLOR_TYPE_RGB, 3, 8}, Layout{PNG_COLOR_TYPE_GRAY_ALPHA, 2, 16},
                          Layout{PNG_COLOR_TYPE_RGBA, 4, 16}, Layout{PNG_COLOR_TYPE_GRAY, 1, 8}}) {
    SCOPED_TRACE("channels " + std::to_string(l.channels) + " bits " + std::to_string(l.bit_depth));
    TempDir dir;
    const int w = 33, h = 17, bytes = l.bit_depth / 8;
    PngSpec s;
    s.width = w;
    s.height = h;
    s.bit_depth = l.bit_depth;
    s.color_type = l.color_type;
    s.interlaced = true;
    const std::vector<int> v = random_values(static_cast<std::size_t>(w) * h * l.channels * bytes, 255, 99);
    for (int y = 0; y < h; ++y) {
      const auto row = v.begin() + static_cast<std::ptrdiff_t>(y) * w * l.channels * bytes;
      s.rows.emplace_back(row, row + w * l.channels * bytes);
    }
    ASSERT_TRUE(write_png(dir.file("i.png"), s));
    const Image img = read_image(dir.file("i.png"));
    ASSERT_EQ(img.channels, l.channels);
    ASSERT_EQ(img.depth, l.bit_depth == 16 ? Depth::U16 : Depth::U8);
    for (std::size_t i = 0; i < v.size() / bytes; ++i) {
      const int expected = bytes == 2 ? v[2 * i] << 8 | v[2 * i + 1] : v[i];  // file order is big-endian
      const int got = bytes == 2 ? img.samples<std::uint16_t>()[i] : img.data[i];
      ASSERT_EQ(got, expected) << i;
    }
  }
}

#if GPUIMG_WITH_OPENCV
using test::random_image;

// OpenCV's RGB(A) order is BGR(A); gray needs no swap.
cv::Mat as_bgr(const Image& img) {
  const cv::Mat rgb(img.height, img.width, CV_MAKETYPE(img.depth == Depth::U16 ? CV_16U : CV_8U, img.channels),
                    const_cast<std::uint8_t*>(img.data.data()));
  cv::Mat bgr;
  if (img.channels == 1) bgr = rgb.clone();
  if (img.channels == 3) cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
  if (img.channels == 4) cv::cvtColor(rgb, bgr, cv::COLOR_RGBA2BGRA);
  return bgr;
}

// OpenCV has no gray+alpha, so only 1, 3 and 4 channels are compared.
TEST(PngOpenCvOracle, OpenCvReadsWhatWeWrite) {
  TempDir dir;
  for (int c : {1, 3, 4}) {
    for (Depth d : {Depth::U8, Depth::U16}) {
      SCOPED_TRACE("channels " + std::to_string(c) + (d == Depth::U8 ? " 8-bit" : " 16-bit"));
      const Image img = random_image(33, 17, c, d, 300 + c);
      write_image(dir.file("ours.png"), img);
      const cv::Mat theirs = cv::imread(dir.file("ours.png"), cv::IMREAD_UNCHANGED);
      const cv::Mat expected = as_bgr(img);
      ASSERT_EQ(theirs.type(), expected.type());
      EXPECT_EQ(cv::norm(theirs, expected, cv::NORM_INF), 0);
    }
  }
}

TEST(PngOpenCvOracle, WeReadWhatOpenCvWrites) {
  TempDir dir;
  for (int c : {1, 3, 4}) {
    for (Depth d : {Depth::U8, Depth::U16}) {
      SCOPED_TRACE("channels " + std::to_string(c) + (d == Depth::U8 ? " 8-bit" : " 16-bit"));
      const Image img = random_image(33, 17, c, d, 400 + c);
      ASSERT_TRUE(cv::imwrite(dir.file("theirs.png"), as_bgr(img)));
      const Image back = read_image(dir.file("theirs.png"));
      ASSERT_EQ(back.channels, c);
      ASSERT_EQ(back.depth, d);
      EXPECT_EQ(back.data, img.data);
    }
  }
}
#endif

}  // namespace
}  // namespace gpuimg
