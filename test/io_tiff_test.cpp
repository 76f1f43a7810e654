// TIFF read through libtiff: every layout and compression gpuimg reads,
// written by libtiff and read back byte for byte; OpenCV's decoder (which
// read TIFF before) as an oracle on valid files; and what is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec.hpp"
#include "crafted_files.hpp"
#include "error.hpp"
#include "random_image.hpp"

#if GPUIMG_WITH_TIFF
#include "backends.hpp"
#include "tiff_files.hpp"
#if GPUIMG_WITH_OPENCV
#include "opencv_decode.hpp"
#endif

namespace gpuimg {
namespace {

using test::random_image;
using test::TiffSpec;

std::string decode_error(const Bytes& file, const ReadOptions& opts = {}) {
  try {
    decode_image_bytes("t.tif", file, opts);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TiffSpec spec_for(const Image& img) {
  TiffSpec s;
  s.width = static_cast<std::uint32_t>(img.width);
  s.height = static_cast<std::uint32_t>(img.height);
  s.bits = static_cast<std::uint16_t>(8 * bytes_per_sample(img.depth));
  s.samples = static_cast<std::uint16_t>(img.channels);
  s.photometric = img.channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
  return s;
}

// ---- every layout, read back exactly ----------------------------------------

struct Case {
  int channels;
  Depth depth;
  std::uint16_t compression;
  bool planar, tiled;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  const char* compression = c.compression == COMPRESSION_NONE       ? "none"
                            : c.compression == COMPRESSION_LZW      ? "lzw"
                            : c.compression == COMPRESSION_PACKBITS ? "packbits"
                                                                    : "deflate";
  return std::string("c") + std::to_string(c.channels) + (c.depth == Depth::U8 ? "_8bit_" : "_16bit_") + compression +
         (c.planar ? "_planar" : "_contig") + (c.tiled ? "_tiles" : "_strips");
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (int c = 1; c <= 4; ++c)
    for (Depth d : {Depth::U8, Depth::U16})
      for (std::uint16_t comp : {COMPRESSION_NONE, COMPRESSION_LZW, COMPRESSION_ADOBE_DEFLATE, COMPRESSION_PACKBITS})
        for (bool planar : {false, true})
          for (bool tiled : {false, true}) out.push_back({c, d, comp, planar, tiled});
  return out;
}

class TiffLayouts : public testing::TestWithParam<Case> {};

// 37x21: strips of 5 rows end in a short one, 16x16 tiles overhang the
// image on the right and at the bottom. Alpha (unassociated, as most
// writers store it) comes back as stored.
TEST_P(TiffLayouts, ReadBackExactly) {
  const Case& c = GetParam();
  const Image img = random_image(37, 21, c.channels, c.depth, 40 + c.channels);
  TiffSpec s = spec_for(img);
  s.compression = c.compression;
  s.planar = c.planar;
  s.rows_per_strip = 5;
  s.tile = c.tiled ? 16 : 0;
  const Image back = decode_image_bytes("t.tif", test::tiff_bytes(s, test::tiff_planes(img, c.planar)));
  ASSERT_EQ(back.width, img.width);
  ASSERT_EQ(back.height, img.height);
  ASSERT_EQ(back.channels, img.channels);
  ASSERT_EQ(back.depth, img.depth);
  EXPECT_EQ(back.data, img.data);
}

INSTANTIATE_TEST_SUITE_P(, TiffLayouts, testing::ValuesIn(cases()), case_name);

// ---- fewer than 8 bits, palettes, white is zero --------------------------------

// One row of `width` samples of `bits` bits each, packed from the left.
Bytes packed_row(const std::vector<unsigned>& values, int bits) {
  Bytes row((values.size() * bits + 7) / 8, 0);
  for (std::size_t i = 0; i < values.size(); ++i)
    row[i * bits / 8] |= static_cast<std::uint8_t>(values[i] << (8 - bits - i * bits % 8));
  return row;
}

Image decode_packed(const std::vector<unsigned>& values, int bits, std::uint16_t photometric,
                    std::vector<std::uint16_t> colormap = {}) {
  TiffSpec s;
  s.width = static_cast<std::uint32_t>(values.size());
  s.height = 1;
  s.bits = static_cast<std::uint16_t>(bits);
  s.photometric = photometric;
  s.colormap = std::move(colormap);
  return decode_image_bytes("t.tif", test::tiff_bytes(s, {packed_row(values, bits)}));
}

TEST(TiffRead, GrayBelow8BitsIsScaledTo8AsPngIs) {
  EXPECT_EQ(decode_packed({0, 1, 1, 0, 1}, 1, PHOTOMETRIC_MINISBLACK).data, (Bytes{0, 255, 255, 0, 255}));
  EXPECT_EQ(decode_packed({0, 1, 2, 3, 2}, 2, PHOTOMETRIC_MINISBLACK).data, (Bytes{0, 85, 170, 255, 170}));
  EXPECT_EQ(decode_packed({0, 7, 15}, 4, PHOTOMETRIC_MINISBLACK).data, (Bytes{0, 119, 255}));
}

TEST(TiffRead, MinIsWhiteIsInvertedAtEveryDepth) {
  EXPECT_EQ(decode_packed({0, 1, 1}, 1, PHOTOMETRIC_MINISWHITE).data, (Bytes{255, 0, 0}));
  EXPECT_EQ(decode_packed({0, 5, 15}, 4, PHOTOMETRIC_MINISWHITE).data, (Bytes{255, 170, 0}));
  for (Depth d : {Depth::U8, Depth::U16}) {
    const Image img = random_image(9, 4, 2, d, 7);
    TiffSpec s = spec_for(img);
    s.photometric = PHOTOMETRIC_MINISWHITE;
    Image expected = img;
    for (std::size_t i = 0; i < img.pixel_count(); ++i) {  // gray inverted, alpha as stored
      if (d == Depth::U8)
        expected.samples<std::uint8_t>()[2 * i] ^= 0xff;
      else
        expected.samples<std::uint16_t>()[2 * i] ^= 0xffff;
    }
    EXPECT_EQ(decode_image_bytes("t.tif", test::tiff_bytes(s, test::tiff_planes(img, false))).data, expected.data);
  }
}

// A colour map of 2^bits entries: entry i is (i * 257 * r_step, ...) & 0xffff.
std::vector<std::uint16_t> colormap(int bits, unsigned scale) {
  const unsigned n = 1u << bits;
  std::vector<std::uint16_t> map(3 * n);
  for (unsigned i = 0; i < n; ++i) {
    map[i] = static_cast<std::uint16_t>(i * scale);
    map[n + i] = static_cast<std::uint16_t>((n - 1 - i) * scale);
    map[2 * n + i] = static_cast<std::uint16_t>(0x80 * scale);
  }
  return map;
}

TEST(TiffRead, PaletteBecomesRgb) {
  // Entries scaled by 257 (the TIFF way) and by 256 (some writers') both
  // give back the 8-bit colour.
  for (unsigned scale : {257u, 256u}) {
    EXPECT_EQ(decode_packed({0, 255, 3}, 8, PHOTOMETRIC_PALETTE, colormap(8, scale)).data,
              (Bytes{0, 255, 128, 255, 0, 128, 3, 252, 128}))
        << scale;
    EXPECT_EQ(decode_packed({1, 14}, 4, PHOTOMETRIC_PALETTE, colormap(4, scale)).data, (Bytes{1, 14, 128, 14, 1, 128})) << scale;
  }
  // Every entry under 256: a map old writers stored as 8-bit, taken as it is.
  EXPECT_EQ(decode_packed({1, 0}, 1, PHOTOMETRIC_PALETTE, colormap(1, 1)).data, (Bytes{1, 0, 128, 0, 1, 128}));
}

// libtiff drops a ColorMap of any other length than 3 x 2^bits and opens
// no palette image without one, so every index has its colour: here an
// 8-bit palette's map, its BitsPerSample changed to 4.
TEST(TiffRead, PaletteWithoutAFullColourMapIsRefused) {
  TiffSpec s;
  s.width = 2;
  s.height = 1;
  s.photometric = PHOTOMETRIC_PALETTE;
  s.colormap = colormap(8, 257);
  const Bytes file = test::tiff_bytes(s, {{0, 200}});
  EXPECT_EQ(decode_image_bytes("t.tif", file).data, (Bytes{0, 255, 128, 200, 55, 128}));
  const std::string message = decode_error(test::with_tiff_value(file, TIFFTAG_BITSPERSAMPLE, 0, 4));
  EXPECT_EQ(message.rfind("t.tif: corrupt TIFF (libtiff: ", 0), 0u) << message;
  EXPECT_NE(message.find("Colormap"), std::string::npos) << message;
}

// libtiff gives 16-bit samples in the host's order whatever the file's.
TEST(TiffRead, BigEndianAndBigTiff) {
  const Image img = random_image(19, 6, 4, Depth::U16, 8);
  for (const char* mode : {"wb", "w8", "wb8"}) {
    EXPECT_EQ(decode_image_bytes("t.tif", test::tiff_bytes({{spec_for(img), test::tiff_planes(img, false)}}, mode)).data,
              img.data)
        << mode;
  }
}

// ---- JPEG-in-TIFF and OpenCV's decoder as the oracle ----------------------------

TiffSpec jpeg_spec(const Image& img, bool ycbcr, bool tiled) {
  TiffSpec s = spec_for(img);
  s.compression = COMPRESSION_JPEG;
  s.jpeg_ycbcr = ycbcr;
  s.rows_per_strip = 16;
  s.tile = tiled ? 16 : 0;
  return s;
}

TEST(TiffRead, JpegGivesTheImageItsSizeAndLayout) {
  for (int channels : {1, 3}) {
    for (bool tiled : {false, true}) {
      const Image img = random_image(40, 24, channels, Depth::U8, 3);
      const Image back =
          decode_image_bytes("t.tif", test::tiff_bytes(jpeg_spec(img, channels == 3, tiled), test::tiff_planes(img, false)));
      EXPECT_EQ(back.width, 40);
      EXPECT_EQ(back.height, 24);
      EXPECT_EQ(back.channels, channels);
      EXPECT_EQ(back.depth, Depth::U8);
    }
  }
}

#if GPUIMG_WITH_OPENCV
using test::opencv_decode;

void expect_as_opencv(const Bytes& file, const std::string& what) {
  SCOPED_TRACE(what);
  const Image ours = decode_image_bytes("t.tif", file), theirs = opencv_decode(file);
  ASSERT_EQ(ours.channels, theirs.channels);
  ASSERT_EQ(ours.depth, theirs.depth);
  EXPECT_EQ(ours.data, theirs.data);
}

TEST(TiffOracle, ValidCompressedFilesDecodeAsOpenCvDecodedThem) {
  for (int channels : {1, 3}) {
    const Image img = random_image(40, 24, channels, Depth::U8, 5 + channels);
    for (bool tiled : {false, true}) {
      const std::string where = std::to_string(channels) + (tiled ? " channels, tiles" : " channels, strips");
      expect_as_opencv(test::tiff_bytes(jpeg_spec(img, false, tiled), test::tiff_planes(img, false)), "JPEG, " + where);
      if (channels == 3) {
        expect_as_opencv(test::tiff_bytes(jpeg_spec(img, true, tiled), test::tiff_planes(img, false)), "JPEG YCbCr, " + where);
      }
      for (std::uint16_t comp : {COMPRESSION_LZW, COMPRESSION_ADOBE_DEFLATE, COMPRESSION_PACKBITS}) {
        TiffSpec s = spec_for(img);
        s.compression = comp;
        s.tile = tiled ? 16 : 0;
        s.rows_per_strip = 7;
        expect_as_opencv(test::tiff_bytes(s, test::tiff_planes(img, false)),
                         "compression " + std::to_string(comp) + ", " + where);
      }
    }
  }
  const Image wide = random_image(40, 24, 3, Depth::U16, 9);
  TiffSpec s = spec_for(wide);
  s.compression = COMPRESSION_LZW;
  expect_as_opencv(test::tiff_bytes(s, test::tiff_planes(wide, false)), "16-bit RGB, LZW");
  for (std::uint16_t photometric : {PHOTOMETRIC_MINISBLACK, PHOTOMETRIC_MINISWHITE}) {
    TiffSpec bilevel;
    bilevel.width = 13;
    bilevel.height = 1;
    bilevel.bits = 1;
    bilevel.photometric = photometric;
    bilevel.compression = COMPRESSION_PACKBITS;
    expect_as_opencv(test::tiff_bytes(bilevel, {packed_row({1, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 0, 1}, 1)}), "bilevel");
  }
  TiffSpec palette;
  palette.width = 4;
  palette.height = 1;
  palette.photometric = PHOTOMETRIC_PALETTE;
  palette.colormap = colormap(8, 257);
  expect_as_opencv(test::tiff_bytes(palette, {{0, 9, 200, 255}}), "palette");
}
#endif

// ---- what is refused -----------------------------------------------------------

TEST(TiffRead, WhatItDoesNotReadIsRefusedByName) {
  struct Refused {
    TiffSpec spec;
    std::string message;
  };
  auto spec = [](std::uint16_t bits, std::uint16_t samples, std::uint16_t photometric) {
    TiffSpec s;
    s.width = 16;
    s.height = 2;
    s.bits = bits;
    s.samples = samples;
    s.photometric = photometric;
    return s;
  };
  std::vector<Refused> refused = {
      {spec(32, 1, PHOTOMETRIC_MINISBLACK), "unsupported TIFF (32-bit gray)"},
      {spec(12, 3, PHOTOMETRIC_RGB), "unsupported TIFF (12-bit RGB)"},
      {spec(4, 2, PHOTOMETRIC_MINISBLACK), "unsupported TIFF (4-bit gray with alpha)"},
      {spec(8, 4, PHOTOMETRIC_SEPARATED), "unsupported TIFF (separated colour (CMYK))"},
      {spec(8, 3, PHOTOMETRIC_CIELAB), "unsupported TIFF (L*a*b* colour)"},
      {spec(8, 5, PHOTOMETRIC_RGB), "unsupported TIFF (RGB with 5 samples a pixel)"},
      {spec(16, 1, PHOTOMETRIC_PALETTE), "unsupported TIFF (16-bit palette)"},
  };
  refused.push_back({spec(32, 1, PHOTOMETRIC_MINISBLACK), "unsupported TIFF (floating-point samples)"});
  refused.back().spec.sample_format = SAMPLEFORMAT_IEEEFP;
  refused.push_back({spec(16, 1, PHOTOMETRIC_MINISBLACK), "unsupported TIFF (signed samples)"});
  refused.back().spec.sample_format = SAMPLEFORMAT_INT;
  refused.push_back({spec(1, 1, PHOTOMETRIC_MINISWHITE),
                     "unsupported TIFF (CCITT Group 4 compression; gpuimg reads none, LZW, Deflate, PackBits and JPEG)"});
  refused.back().spec.compression = COMPRESSION_CCITTFAX4;
  refused.push_back({spec(8, 3, PHOTOMETRIC_RGB), "unsupported TIFF (YCbCr without JPEG compression)"});
  refused.back().spec.photometric = PHOTOMETRIC_YCBCR;
  for (Refused& r : refused) {
    if (r.spec.photometric == PHOTOMETRIC_PALETTE) r.spec.colormap.assign(3u << r.spec.bits, 0);
    const std::uint64_t row = (std::uint64_t{r.spec.width} * r.spec.samples * r.spec.bits + 7) / 8;
    const Bytes file = test::tiff_bytes(r.spec, {Bytes(row * r.spec.height, 0)});
    EXPECT_EQ(decode_error(file), "t.tif: " + r.message);
  }
}

// The decoder applies the pixel limit and the block rule to what libtiff
// reads, whatever a check of the header before it found.
TEST(TiffRead, DecoderChecksLimitsOnWhatLibtiffReads) {
  const Image img = random_image(64, 64, 1, Depth::U8, 4);
  TiffSpec s = spec_for(img);
  const Bytes file = test::tiff_bytes(s, test::tiff_planes(img, false));
  EXPECT_THROW(decode_tiff(file, 4095), CodecFailure);
  EXPECT_EQ(decode_tiff(file, 4096).data, img.data);
  s.width = s.height = 1;
  s.tile = 4096;  // 2^24 pixels for one
  try {
    decode_tiff(test::tiff_bytes(s, {{7}}), 1);
    ADD_FAILURE() << "decoded";
  } catch (const CodecFailure& e) {
    EXPECT_STREQ(e.what(), "TIFF decoded in blocks of 4096x4096 pixels, larger than its 1x1 image and than 2^22 pixels");
  }
}

}  // namespace
}  // namespace gpuimg

#else

namespace gpuimg {
namespace {

TEST(TiffRead, RefusedWithoutLibtiff) {
  try {
    decode_image_bytes("a.tif", test::gray_tiff({{256, 3, 1}, {257, 3, 1}}, 1, 1, {7}));
    ADD_FAILURE() << "decoded";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "a.tif: TIFF needs a build with libtiff");
  }
}

}  // namespace
}  // namespace gpuimg

#endif
