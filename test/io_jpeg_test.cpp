// JPEG through libjpeg: what the encoder stores (components,
// chroma sampling, quality), and inputs gpuimg never writes (CMYK, YCCK),
// made here with libjpeg directly and decoded independently to check the
// pinned CMYK conversion.
#include <gtest/gtest.h>

#include <cstdio>  // jpeglib.h needs FILE and size_t declared first

#include <jpeglib.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "codec.hpp"
#include "jpeg_frame.hpp"
#include "temp_dir.hpp"

namespace gpuimg {
namespace {

using test::TempDir;
using Bytes = std::vector<std::uint8_t>;

Bytes load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void save(const std::string& path, const Bytes& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

using Frame = test::JpegFrame;
std::optional<Frame> frame_of(const Bytes& b) { return test::jpeg_frame_of(b); }

// libjpeg's errors end a test helper through longjmp instead of exit().
struct TestErrors {
  jpeg_error_mgr pub;
  std::jmp_buf jump;
};

[[noreturn]] void jump_back(j_common_ptr cinfo) { std::longjmp(reinterpret_cast<TestErrors*>(cinfo->err)->jump, 1); }

// A 4-component JPEG of `cmyk` (C, M, Y, K per pixel, as given to libjpeg),
// stored as CMYK or YCCK; libjpeg adds the Adobe marker that says which.
Bytes cmyk_jpeg(int w, int h, const Bytes& cmyk, J_COLOR_SPACE stored_as) {
  TestErrors err;
  jpeg_compress_struct cinfo{};
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jump_back;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  if (setjmp(err.jump)) {
    jpeg_destroy_compress(&cinfo);
    std::free(buffer);
    ADD_FAILURE() << "libjpeg could not write the CMYK test file";
    return {};
  }
  jpeg_create_compress(&cinfo);
  jpeg_mem_dest(&cinfo, &buffer, &size);
  cinfo.image_width = static_cast<JDIMENSION>(w);
  cinfo.image_height = static_cast<JDIMENSION>(h);
  cinfo.input_components = 4;
  cinfo.in_color_space = JCS_CMYK;
  jpeg_set_defaults(&cinfo);
  jpeg_set_colorspace(&cinfo, stored_as);
  jpeg_set_quality(&cinfo, 90, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW row = const_cast<std::uint8_t*>(cmyk.data()) + std::size_t{cinfo.next_scanline} * w * 4;
    jpeg_write_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  Bytes out(buffer, buffer + size);
  std::free(buffer);
  return out;
}

// The file's CMYK samples as libjpeg decodes them, before any conversion to RGB.
Bytes raw_cmyk(const Bytes& file) {
  TestErrors err;
  jpeg_decompress_struct cinfo{};
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jump_back;
  Bytes out;
  if (setjmp(err.jump)) {
    jpeg_destroy_decompress(&cinfo);
    ADD_FAILURE() << "libjpeg could not read the CMYK test file";
    return {};
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, file.data(), static_cast<unsigned long>(file.size()));
  jpeg_read_header(&cinfo, TRUE);
  cinfo.out_color_space = JCS_CMYK;
  jpeg_start_decompress(&cinfo);
  out.resize(std::size_t{cinfo.output_width} * cinfo.output_height * 4);
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = out.data() + std::size_t{cinfo.output_scanline} * cinfo.output_width * 4;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return out;
}

// A smooth image, which JPEG keeps close.
Image gradient(int w, int h, int c) {
  Image img(w, h, c, Depth::U8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int k = 0; k < c; ++k) img.data[(std::size_t(y) * w + x) * c + k] = static_cast<std::uint8_t>((x * (k + 1) + y * 3) % 256);
  return img;
}

TEST(JpegEncoder, GrayIsStoredAsOneComponentAndReadBackAsGray) {
  TempDir dir;
  for (int channels : {1, 2}) {  // gray+alpha: the alpha is dropped
    SCOPED_TRACE(channels);
    write_image(dir.file("g.jpg"), gradient(40, 24, channels));
    const std::optional<Frame> frame = frame_of(load(dir.file("g.jpg")));
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->sampling.size(), 1u);
    const Image back = read_image(dir.file("g.jpg"));
    EXPECT_EQ(back.channels, 1);
    EXPECT_EQ(back.width, 40);
    EXPECT_EQ(back.height, 24);
  }
}

// By default, ImageMagick's rule: 4:2:0 (luma sampled 2x2, chroma 1x1)
// below quality 90; 4:4:4 from 90 up.
TEST(JpegEncoder, ChromaIsSubsampledBelowQuality90Only) {
  TempDir dir;
  const Image rgb = gradient(40, 24, 3);
  for (int quality : {1, 50, 89, 90, 95, 100}) {
    SCOPED_TRACE(quality);
    write_image(dir.file("c.jpg"), rgb, WriteOptions{quality});
    const std::optional<Frame> frame = frame_of(load(dir.file("c.jpg")));
    ASSERT_TRUE(frame);
    EXPECT_EQ(frame->precision, 8);
    const std::vector<int> expected = quality < 90 ? std::vector<int>{0x22, 0x11, 0x11} : std::vector<int>{0x11, 0x11, 0x11};
    EXPECT_EQ(frame->sampling, expected);
    EXPECT_EQ(read_image(dir.file("c.jpg")).channels, 3);
  }
}

TEST(JpegEncoder, HigherQualityGivesALargerFile) {
  TempDir dir;
  std::mt19937 rng(3);
  Image img = gradient(96, 64, 3);
  for (std::uint8_t& v : img.data) v = static_cast<std::uint8_t>(v / 2 + rng() % 64);  // some texture to keep
  std::size_t previous = 0;
  for (int quality : {5, 25, 50, 75, 89, 100}) {  // at one chroma sampling (4:2:0 below 90) and across the switch
    write_image(dir.file("q.jpg"), img, WriteOptions{quality});
    const std::size_t size = load(dir.file("q.jpg")).size();
    EXPECT_GT(size, previous) << "quality " << quality;
    previous = size;
  }
}

// The pinned conversion: each of R, G, B is round(v * K / 255) from the
// samples as libjpeg decodes them (inverted, as Adobe stores CMYK), which
// this test computes in floating point from its own decode of the file.
TEST(JpegDecoder, CmykAndYcckComeOutAsRgbByThePinnedFormula) {
  TempDir dir;
  const int w = 24, h = 16;
  Bytes cmyk(std::size_t{w} * h * 4);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::uint8_t px[4] = {static_cast<std::uint8_t>(255 - x * 8), static_cast<std::uint8_t>(y * 16), 128,
                                  static_cast<std::uint8_t>(x < 12 ? 255 : 100)};
      std::copy(px, px + 4, cmyk.begin() + (std::size_t(y) * w + x) * 4);
    }
  }
  for (J_COLOR_SPACE stored_as : {JCS_CMYK, JCS_YCCK}) {
    SCOPED_TRACE(stored_as == JCS_CMYK ? "CMYK" : "YCCK");
    const Bytes file = cmyk_jpeg(w, h, cmyk, stored_as);
    ASSERT_FALSE(file.empty());
    save(dir.file("cmyk.jpg"), file);
    const Bytes raw = raw_cmyk(file);
    ASSERT_EQ(raw.size(), cmyk.size());

    const Image img = read_image(dir.file("cmyk.jpg"));
    ASSERT_EQ(img.channels, 3);
    ASSERT_EQ(img.width, w);
    ASSERT_EQ(img.height, h);
    Bytes expected(std::size_t{w} * h * 3);
    for (std::size_t p = 0; p < std::size_t{w} * h; ++p) {
      for (int c = 0; c < 3; ++c) {
        expected[p * 3 + c] = static_cast<std::uint8_t>(std::lround(raw[p * 4 + c] * raw[p * 4 + 3] / 255.0));
      }
    }
    EXPECT_EQ(img.data, expected);

    // And the colour asked for, where JPEG keeps it (a flat image): no cyan
    // ink (C = 255), half the magenta, all the yellow, K = 200.
    const std::uint8_t ink[4] = {255, 128, 0, 200};
    Bytes flat_cmyk(cmyk.size());
    for (std::size_t i = 0; i < flat_cmyk.size(); i += 4) std::copy(ink, ink + 4, flat_cmyk.begin() + i);
    save(dir.file("flat.jpg"), cmyk_jpeg(w, h, flat_cmyk, stored_as));
    const Image flat = read_image(dir.file("flat.jpg"));
    for (std::size_t p = 0; p < flat.pixel_count(); ++p) {
      ASSERT_NEAR(flat.data[p * 3], 200, 2) << p;      // 255 * 200 / 255
      ASSERT_NEAR(flat.data[p * 3 + 1], 100, 2) << p;  // 128 * 200 / 255 = 100.4
      ASSERT_NEAR(flat.data[p * 3 + 2], 0, 2) << p;
    }
  }
}

}  // namespace
}  // namespace gpuimg
