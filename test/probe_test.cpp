// probe_image against the decoders themselves: from the header alone it must
// give the decoded image's size, and channels and depth never below the
// decoded ones (exactly them for PNG and JPEG, whose headers say). Cut-short
// and damaged headers give nothing, or a shape, never an exception.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "codec.hpp"
#include "probe.hpp"
#include "random_image.hpp"
#include "round_trip_extensions.hpp"
#include "sniff.hpp"
#include "temp_dir.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;
using test::TempDir;

std::string shape_text(const std::optional<ImageShape>& s) {
  if (!s) return "nothing";
  return std::to_string(s->width) + "x" + std::to_string(s->height) + " " + describe(s->channels, s->depth);
}

// One file per extension this build writes and reads back, and per
// layout, as gpuimg writes it (converted where the format cannot hold the
// layout), with the image it decodes to.
struct Written {
  std::string name;
  Bytes file;
  Image decoded;
};

std::vector<Written> written_files(const TempDir& dir) {
  std::vector<Written> out;
  for (const std::string& ext : test::round_trip_extensions())
    for (const Depth depth : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels) {
        const std::string name = ext + "_" + describe(channels, depth);
        const std::string path = dir.file(std::to_string(out.size()) + "." + ext);
        write_image(path, test::random_image(37, 23, channels, depth, 5), {});
        const Bytes file = read_input(path).bytes;
        out.push_back({name, file, decode_image_bytes(path, file)});
      }
  return out;
}

void expect_never_below(const std::optional<ImageShape>& s, const Image& img) {
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->width, std::uint64_t(img.width));
  EXPECT_EQ(s->height, std::uint64_t(img.height));
  EXPECT_GE(s->channels, img.channels);
  EXPECT_LE(s->channels, 4);
  EXPECT_GE(bytes_per_sample(s->depth), bytes_per_sample(img.depth));
}

void expect_exact(const std::optional<ImageShape>& s, const Image& img) {
  EXPECT_EQ(shape_text(s), shape_text(ImageShape{std::uint64_t(img.width), std::uint64_t(img.height), img.channels,
                                                 img.depth}));
}

TEST(ProbeImage, EveryWritableFormatGivesTheSizeAndNeverLessThanTheDecoder) {
  TempDir dir;
  for (const Written& w : written_files(dir)) {
    SCOPED_TRACE(w.name + ", decoded as " + describe(w.decoded.channels, w.decoded.depth));
    const std::optional<ImageShape> s = probe_image(w.file);
    expect_never_below(s, w.decoded);
    const std::optional<Format> format = sniff_format(w.file);
    if (format == Format::png || format == Format::jpeg) expect_exact(s, w.decoded);
  }
}

// Palette, 4-bit gray, tRNS, 16-bit gray+alpha: the layouts gpuimg reads but never writes.
TEST(ProbeImage, EveryPngInDataMatchesItsDecodedLayout) {
  int checked = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(GPUIMG_DATA_DIR)) {
    if (e.path().extension() != ".png") continue;
    SCOPED_TRACE(e.path().filename().string());
    const Bytes file = read_input(e.path().string()).bytes;
    expect_exact(probe_image(file), decode_image_bytes(e.path().string(), file));
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

// The chunks between IHDR and the first IDAT say whether tRNS adds alpha;
// cut before them, the probe assumes it does.
TEST(ProbeImage, PngCutBeforeItsFirstDataAssumesAlpha) {
  const std::string path = std::string(GPUIMG_DATA_DIR) + "/tiny.png";
  const Bytes file = read_input(path).bytes;
  const Image img = decode_image_bytes(path, file);
  ASSERT_EQ(img.channels, 3);
  const Bytes header(file.begin(), file.begin() + 33);  // signature and IHDR
  EXPECT_EQ(shape_text(probe_image(header)),
            shape_text(ImageShape{std::uint64_t(img.width), std::uint64_t(img.height), 4, img.depth}));
}

// Where a JPEG's frame header (baseline or progressive) starts, at its
// marker; 0 if there is none.
std::size_t jpeg_frame_at(const Bytes& b) {
  for (std::size_t i = 2; i + 4 < b.size(); ++i)
    if (b[i] == 0xff && (b[i + 1] == 0xc0 || b[i + 1] == 0xc2)) return i;
  return 0;
}

// How many bytes each format needs before its size is all there.
std::size_t header_bytes(const Bytes& file) {
  switch (*sniff_format(file)) {
    case Format::png: return 26;  // IHDR through the colour type
    case Format::jpeg: {
      const std::size_t at = jpeg_frame_at(file);
      return at == 0 ? 0 : at + 2 + (file[at + 2] << 8 | file[at + 3]);
    }
    case Format::bmp: return 26;
    case Format::webp: return 30;
    case Format::tga: return 18;
    default: return 4;  // PNM's magic and its separator; TIFF's is 8
  }
}

// Every prefix of every format's file: no exception, and nothing while the
// size fields are not all there.
TEST(ProbeImage, CutShortHeadersGiveNothingAndNeverThrow) {
  TempDir dir;
  for (const Written& w : written_files(dir)) {
    SCOPED_TRACE(w.name);
    const std::size_t needed = header_bytes(w.file);
    ASSERT_GT(needed, 0u);
    for (std::size_t len = 0; len < std::min<std::size_t>(w.file.size(), 4096); ++len) {
      const Bytes prefix(w.file.begin(), w.file.begin() + len);
      std::optional<ImageShape> s;
      EXPECT_NO_THROW(s = probe_image(prefix)) << len << " bytes";
      if (len < needed) {
        EXPECT_FALSE(s.has_value()) << len << " bytes gave " << shape_text(s);
      }
      if (s) {
        EXPECT_TRUE(s->channels >= 1 && s->channels <= 4) << len << " bytes gave " << shape_text(s);
      }
    }
  }
}

// Random bytes over each header: whatever comes out, no exception and a
// layout a decoder could give.
TEST(ProbeImage, DamagedHeadersNeverThrow) {
  TempDir dir;
  std::mt19937 rng(11);
  for (const Written& w : written_files(dir)) {
    SCOPED_TRACE(w.name);
    for (int trial = 0; trial < 200; ++trial) {
      Bytes file = w.file;
      const std::size_t header = std::min<std::size_t>(file.size(), 64);
      for (int k = 0; k < 4; ++k) file[std::uniform_int_distribution<std::size_t>(3, header - 1)(rng)] = rng() & 0xff;
      std::optional<ImageShape> s;
      EXPECT_NO_THROW(s = probe_image(file));
      if (s) {
        EXPECT_TRUE(s->channels >= 1 && s->channels <= 4) << shape_text(s);
      }
    }
  }
}

// A PSD of `channels` planes, raw, RGB colour mode: the merged image stb reads.
Bytes psd(int width, int height, int channels, int depth) {
  Bytes b = {'8', 'B', 'P', 'S', 0, 1, 0, 0, 0, 0, 0, 0, 0, std::uint8_t(channels)};
  for (const int v : {height, width})
    for (const int shift : {24, 16, 8, 0}) b.push_back(std::uint8_t(v >> shift));
  b.insert(b.end(), {0, std::uint8_t(depth), 0, 3});  // depth, colour mode RGB
  b.insert(b.end(), 12, 0);                           // no colour data, resources or layers
  b.insert(b.end(), {0, 0});                          // raw planes
  for (int i = 0; i < width * height * channels * depth / 8; ++i) b.push_back(std::uint8_t(i * 37));
  return b;
}

// GIF and PSD, read by stb_image alone and never written by gpuimg.
TEST(ProbeImage, GifAndPsdGiveWhatStbDecodes) {
  // The smallest GIF: 1x1, one transparent pixel.
  const Bytes gif = {'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0, 0x21, 0xf9, 4, 1,
                     0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b};
  TempDir dir;
  const std::vector<std::pair<std::string, Bytes>> files = {
      {"gif", gif}, {"psd_rgb8", psd(5, 3, 3, 8)}, {"psd_rgba16", psd(4, 2, 4, 16)}};
  for (const auto& [name, file] : files) {
    SCOPED_TRACE(name);
    const Image img = decode_image_bytes(name, file);
    expect_never_below(probe_image(file), img);
  }
}

// A JPEG whose frame header gives height 0 sets it in a DNL marker after the
// first scan: not in the header, so no shape.
TEST(ProbeImage, JpegWithItsHeightLeftForLaterGivesNothing) {
  TempDir dir;
  write_image(dir.file("a.jpg"), test::random_image(16, 9, 3, Depth::U8, 3), {});
  Bytes file = read_input(dir.file("a.jpg")).bytes;
  ASSERT_TRUE(probe_image(file).has_value());
  const std::size_t at = jpeg_frame_at(file) + 5;  // marker, length, precision, then the height
  ASSERT_GT(at, 5u);
  file[at] = file[at + 1] = 0;
  EXPECT_FALSE(probe_image(file).has_value());
}

TEST(ProbeImage, WhatIsNoImageGivesNothing) {
  EXPECT_FALSE(probe_image({}).has_value());
  const std::string text = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n";
  EXPECT_FALSE(probe_image(Bytes(text.begin(), text.end())).has_value());
  const std::string prose = "not an image at all, just words";
  EXPECT_FALSE(probe_image(Bytes(prose.begin(), prose.end())).has_value());
}

}  // namespace
}  // namespace gpuimg
