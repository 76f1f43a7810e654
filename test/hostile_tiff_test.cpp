// TIFFs whose strips or tiles hold less than their pixels need. OpenCV,
// which read TIFF before libtiff did directly, decoded 8-bit ones with
// TIFFReadRGBAStrip/Tile, which goes on past libtiff's decode errors: each
// file here came out with exit 0 and made-up pixels (issue 23). Each is
// refused now with one line, and nothing written.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "codec.hpp"
#include "crafted_files.hpp"
#include "error.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"
#include "temp_dir.hpp"

#if GPUIMG_WITH_TIFF
#include "tiff_files.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;
using namespace test;

std::string decode_error(const Bytes& file) {
  try {
    decode_image_bytes("t.tif", file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

struct Cut {
  const char* name;
  std::uint16_t compression;
  const char* decoder;  // libtiff's name for the code that finds the cut
  bool tiled;
};

// A 64x64 8-bit RGB image (OpenCV's RGBA path), in strips of 16 rows or
// tiles of 32x32, block 1 of them stored whole or with its bytes halved
// where they lie.
Image cut_image() { return random_image(64, 64, 3, Depth::U8, 23); }

Bytes tiff_of(const Cut& c, bool cut) {
  TiffSpec s;
  s.width = s.height = 64;
  s.samples = 3;
  s.photometric = PHOTOMETRIC_RGB;
  s.compression = c.compression;
  s.rows_per_strip = 16;
  s.tile = c.tiled ? 32 : 0;
  const Bytes whole = tiff_bytes(s, tiff_planes(cut_image(), false));
  const std::uint16_t counts = c.tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS;
  return cut ? with_tiff_value(whole, counts, 1, tiff_value(whole, counts, 1) / 2) : whole;
}

class TruncatedTiff : public testing::TestWithParam<Cut> {};

TEST_P(TruncatedTiff, IsRefusedWhereTheWholeFileDecodes) {
  const Cut& c = GetParam();
  const Image whole = decode_image_bytes("t.tif", tiff_of(c, false));
  if (c.compression != COMPRESSION_JPEG) {
    EXPECT_EQ(whole.data, cut_image().data);
  }
  const std::string message = decode_error(tiff_of(c, true));
  EXPECT_THAT(message, testing::StartsWith("t.tif: corrupt TIFF (libtiff: " + std::string(c.decoder)));
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST_P(TruncatedTiff, FailsTheRunWithOneLineAndNoOutput) {
  TempDir dir;
  const Bytes cut = tiff_of(GetParam(), true);
  save(dir.file("in.tif"), cut);
  const RunResult r = run_binary({dir.file("in.tif"), "--invert", dir.file("out.png"), "--device", "cpu"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_THAT(r.err, testing::StartsWith("gpuimg: " + dir.file("in.tif") + ": corrupt TIFF (libtiff: "));
  EXPECT_FALSE(fs::exists(dir.file("out.png")));
  EXPECT_EQ(load(dir.file("in.tif")), cut);
}

INSTANTIATE_TEST_SUITE_P(, TruncatedTiff,
                         testing::Values(Cut{"deflate_strip", COMPRESSION_ADOBE_DEFLATE, "ZIPDecode", false},
                                         Cut{"packbits_strip", COMPRESSION_PACKBITS, "PackBitsDecode", false},
                                         Cut{"lzw_strip", COMPRESSION_LZW, "LZWDecode", false},
                                         Cut{"jpeg_strip", COMPRESSION_JPEG, "JPEGLib", false},
                                         Cut{"deflate_tile", COMPRESSION_ADOBE_DEFLATE, "ZIPDecode", true},
                                         Cut{"packbits_tile", COMPRESSION_PACKBITS, "PackBitsDecode", true},
                                         Cut{"lzw_tile", COMPRESSION_LZW, "LZWDecode", true},
                                         Cut{"jpeg_tile", COMPRESSION_JPEG, "JPEGLib", true}),
                         [](const testing::TestParamInfo<Cut>& info) { return std::string(info.param.name); });

// The file itself cut: the last strip's bytes run past its end.
TEST(TruncatedTiffFile, StripPastTheEndIsRefused) {
  const Bytes whole = gray_tiff({{256, 3, 4}, {257, 3, 4}}, 4, 4, Bytes(16, 9));
  EXPECT_EQ(decode_image_bytes("t.tif", whole).data, Bytes(16, 9));
  EXPECT_EQ(decode_error(Bytes(whole.begin(), whole.end() - 6)), "t.tif: truncated TIFF (strip 0 ends past the end of the file)");
}

// A strip with fewer bytes than the best its compression gains could hold
// its pixels in: refused before any pixel memory is allocated.
TEST(TruncatedTiffFile, StripTooShortForItsPixelsIsRefusedBeforeDecoding) {
  // PackBits gains at most 64:1 (a 2-byte run of 128), Deflate 1032:1.
  EXPECT_EQ(decode_error(tiff_claiming(64, COMPRESSION_PACKBITS, 63)),
            "t.tif: truncated TIFF (strip 0 has 63 bytes; its 4096 bytes of pixels need at least 64)");
  EXPECT_EQ(decode_error(tiff_claiming(8000, COMPRESSION_ADOBE_DEFLATE, 100)),
            "t.tif: truncated TIFF (strip 0 has 100 bytes; its 64000000 bytes of pixels need at least 62015)");
}

// Decodes in several threads at once (a batch's): each handle reports to
// its own handlers, so each file gets its own result or message.
TEST(TiffThreads, EachDecodeKeepsItsOwnResult) {
  const std::vector<Cut> cuts = {{"", COMPRESSION_ADOBE_DEFLATE, "ZIPDecode", false},
                                 {"", COMPRESSION_LZW, "LZWDecode", true},
                                 {"", COMPRESSION_JPEG, "JPEGLib", false},
                                 {"", COMPRESSION_PACKBITS, "PackBitsDecode", true}};
  std::vector<Bytes> files;
  std::vector<std::string> expected;
  for (const Cut& c : cuts) {
    for (bool cut : {false, true}) {
      files.push_back(tiff_of(c, cut));
      expected.push_back(cut ? decode_error(files.back()) : "(no error)");
      if (cut) {
        ASSERT_THAT(expected.back(), testing::StartsWith("t.tif: corrupt TIFF (libtiff: " + std::string(c.decoder)));
      }
    }
  }
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        const std::size_t k = static_cast<std::size_t>(t + i) % files.size();
        if (decode_error(files[k]) != expected[k]) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace gpuimg

#endif
