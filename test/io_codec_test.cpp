// Round trips through every output format this build writes, the pinned
// conversions, and the path helpers.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "codec.hpp"
#include "error.hpp"
#include "fifo_feeder.hpp"
#include "oracles.hpp"
#include "file_util.hpp"
#include "pixel_convert.hpp"
#include "random_image.hpp"
#include "temp_dir.hpp"
#if GPUIMG_WITH_OPENCV
#include "opencv_decode.hpp"
#endif

namespace gpuimg {
namespace {

namespace fs = std::filesystem;

using test::TempDir;

using test::random_image;

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What each lossless output keeps, stated here independently of
// output_formats.hpp: the channels read back for 1, 2, 3, 4 channels in.
struct Holds {
  const char* ext;
  int channels_out[4];
  bool holds_16bit;
};

const std::vector<Holds>& lossless_formats() {
  static const std::vector<Holds> formats = {
      {"png", {1, 2, 3, 4}, true},
      {"tga", {1, 2, 3, 4}, false},
#if GPUIMG_WITH_TIFF
      {"tif", {1, 4, 3, 4}, true},
      {"tiff", {1, 4, 3, 4}, true},
#endif
      {"webp", {3, 4, 3, 4}, false},
      {"bmp", {1, 1, 3, 3}, false},
      {"pgm", {1, 1, 1, 1}, true},
      {"ppm", {3, 3, 3, 3}, true},
      {"pnm", {1, 1, 3, 3}, true},
  };
  return formats;
}

struct RoundTrip {
  Holds format;
  int channels;
  Depth depth;
  int width, height;
};

std::string describe(const RoundTrip& p) {
  return std::string(p.format.ext) + "_c" + std::to_string(p.channels) + (p.depth == Depth::U8 ? "_8bit_" : "_16bit_") +
         std::to_string(p.width) + "x" + std::to_string(p.height);
}

std::string case_name(const testing::TestParamInfo<RoundTrip>& info) { return describe(info.param); }

// Instead of GoogleTest's byte dump, which would read the struct's padding.
void PrintTo(const RoundTrip& p, std::ostream* os) { *os << describe(p); }

std::vector<RoundTrip> round_trips() {
  std::vector<RoundTrip> cases;
  const int sizes[][2] = {{1, 1}, {1, 7}, {7, 1}, {33, 17}};
  for (const Holds& f : lossless_formats()) {
    for (int c = 1; c <= 4; ++c) {
      for (Depth d : {Depth::U8, Depth::U16}) {
        for (const auto& s : sizes) cases.push_back({f, c, d, s[0], s[1]});
      }
    }
  }
  return cases;
}

class LosslessRoundTrip : public testing::TestWithParam<RoundTrip> {};

// Bit-exact after the documented conversion for what the format cannot hold.
TEST_P(LosslessRoundTrip, ReadsBackWhatWasWritten) {
  const RoundTrip& p = GetParam();
  TempDir dir;
  const Image src = random_image(p.width, p.height, p.channels, p.depth, 1234 + p.channels * 7 + p.width);
  const std::string path = dir.file(std::string("img.") + p.format.ext);
  write_image(path, src);
  const Image back = read_image(path);

  const int channels = p.format.channels_out[p.channels - 1];
  const Depth depth = p.format.holds_16bit ? p.depth : Depth::U8;
  Image expected = convert_layout(src, channels, depth);
  if (std::string(p.format.ext) == "webp" && channels == 4) {
    // libwebp's lossless mode stores fully transparent pixels as 0,0,0,0.
    for (std::size_t i = 0; i < expected.data.size(); i += 4) {
      if (expected.data[i + 3] == 0) expected.data[i] = expected.data[i + 1] = expected.data[i + 2] = 0;
    }
  }
  ASSERT_EQ(back.width, p.width);
  ASSERT_EQ(back.height, p.height);
  ASSERT_EQ(back.channels, channels);
  ASSERT_EQ(back.depth, depth);
  EXPECT_EQ(back.data, expected.data);
}

INSTANTIATE_TEST_SUITE_P(AllFormats, LosslessRoundTrip, testing::ValuesIn(round_trips()), case_name);

#if GPUIMG_WITH_OPENCV
// An independent reader takes gpuimg's BMPs, gray (8-bit, a palette of the
// grays) and RGB (24-bit), as the layouts they were written in.
TEST(BmpWrite, OpenCvReadsGrayAsGrayAndRgbAsRgb) {
  TempDir dir;
  for (const int channels : {1, 3})
    for (const auto& [w, h] : {std::pair{1, 1}, {5, 3}, {33, 2}}) {
      const Image src = random_image(w, h, channels, Depth::U8, 40 + static_cast<std::uint32_t>(w + channels));
      write_image(dir.file("a.bmp"), src);
      const Image theirs = test::opencv_decode(file_bytes(dir.file("a.bmp")));
      EXPECT_EQ(theirs.channels, channels);
      EXPECT_EQ(theirs.data, src.data) << channels << " channels, " << w << "x" << h;
    }
}
#endif

// A smooth image, which JPEG keeps close; random noise it would not.
Image gradient_image(int w, int h, int c, Depth d) {
  Image img(w, h, c, d);
  const int max = max_sample(d);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      for (int k = 0; k < c; ++k) {
        const int v = max * (x * (k + 1) + y * 2) / ((w - 1) * (k + 1) + (h - 1) * 2);
        const std::size_t i = (static_cast<std::size_t>(y) * w + x) * c + k;
        if (d == Depth::U8) img.data[i] = static_cast<std::uint8_t>(v);
        if (d == Depth::U16) img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
      }
    }
  }
  return img;
}

// A BMP whose header height is negative stores its rows top down; both
// of its decoders (OpenCV, or stb in a build without it) read it upright.
TEST(BmpDecode, TopDownRowsComeOutUpright) {
  const int w = 2, h = 3;
  std::vector<std::uint8_t> f = {'B', 'M'};
  const auto le = [&](std::uint32_t v, int n) {
    for (int i = 0; i < n; ++i) f.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  const std::uint32_t row = 8;  // 2 pixels of 3 bytes, padded to 4
  le(54 + row * h, 4), le(0, 4), le(54, 4);
  le(40, 4), le(w, 4), le(static_cast<std::uint32_t>(-h), 4), le(1, 2), le(24, 2), le(0, 4), le(row * h, 4);
  le(2835, 4), le(2835, 4), le(0, 4), le(0, 4);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) f.insert(f.end(), {std::uint8_t(10 * y + x), 0, std::uint8_t(100 + y)});  // B, G, R
    f.insert(f.end(), {0, 0});
  }
  const Image img = decode_image_bytes("top-down.bmp", f);
  ASSERT_EQ(img.width, w);
  ASSERT_EQ(img.height, h);
  ASSERT_EQ(img.channels, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::uint8_t* px = img.data.data() + (y * w + x) * 3;
      EXPECT_EQ(px[0], 100 + y) << x << "," << y;  // R: the file's first row is the top
      EXPECT_EQ(px[2], 10 * y + x) << x << "," << y;
    }
}

TEST(JpegRoundTrip, KeepsSizeAndChannelsWithPixelsClose) {
  const int channels_out[] = {1, 1, 3, 3};  // libjpeg in both builds
  TempDir dir;
  for (const char* ext : {"jpg", "jpeg", "JPG"}) {
    for (int c = 1; c <= 4; ++c) {
      for (Depth d : {Depth::U8, Depth::U16}) {
        SCOPED_TRACE(std::string(ext) + " channels " + std::to_string(c) + (d == Depth::U8 ? " 8-bit" : " 16-bit"));
        const Image src = gradient_image(64, 40, c, d);
        const std::string path = dir.file(std::string("img.") + ext);
        write_image(path, src);
        const Image back = read_image(path);
        ASSERT_EQ(back.width, 64);
        ASSERT_EQ(back.height, 40);
        ASSERT_EQ(back.channels, channels_out[c - 1]);
        ASSERT_EQ(back.depth, Depth::U8);
        const Image expected = convert_layout(src, back.channels, Depth::U8);
        double total = 0;
        int worst = 0;
        for (std::size_t i = 0; i < back.data.size(); ++i) {
          const int diff = std::abs(back.data[i] - expected.data[i]);
          total += diff;
          worst = std::max(worst, diff);
        }
        EXPECT_LT(total / back.data.size(), 2.0);
        EXPECT_LE(worst, 12);
      }
    }
  }
}

TEST(JpegRoundTrip, QualityChangesTheFile) {
  TempDir dir;
  const Image src = gradient_image(64, 40, 3, Depth::U8);
  write_image(dir.file("low.jpg"), src, WriteOptions{10});
  write_image(dir.file("high.jpg"), src, WriteOptions{100});
  EXPECT_LT(file_bytes(dir.file("low.jpg")).size(), file_bytes(dir.file("high.jpg")).size());
}

// The encoders are deterministic, so the same pixels give the same bytes:
// a 16-bit RGBA image must be encoded exactly as its pinned 8-bit RGB form.
TEST(Conversion, SixteenBitRgbaToJpegIsThePinnedEightBitRgb) {
  TempDir dir;
  const Image src = gradient_image(33, 17, 4, Depth::U16);
  Image reference(33, 17, 3, Depth::U8);
  for (std::size_t p = 0; p < src.pixel_count(); ++p) {
    for (int k = 0; k < 3; ++k) reference.data[p * 3 + k] = static_cast<std::uint8_t>((src.samples<std::uint16_t>()[p * 4 + k] + 128) / 257);
  }
  write_image(dir.file("from16.jpg"), src);
  write_image(dir.file("from8.jpg"), reference);
  EXPECT_EQ(file_bytes(dir.file("from16.jpg")), file_bytes(dir.file("from8.jpg")));
}

TEST(Conversion, To8BitRoundsToNearestForEveryValue) {
  for (std::uint32_t v = 0; v <= 65535; ++v) {
    ASSERT_EQ(to_8bit(static_cast<std::uint16_t>(v)), std::lround(v * 255.0 / 65535.0)) << v;
  }
}

TEST(Conversion, GrayAlpha16ToGray8DropsAlpha) {
  Image src(2, 1, 2, Depth::U16);
  const std::uint16_t values[] = {1000, 65535, 65535, 0};
  std::copy(std::begin(values), std::end(values), src.samples<std::uint16_t>());
  const Image out = convert_layout(src, 1, Depth::U8);
  EXPECT_EQ(out.data, (std::vector<std::uint8_t>{4, 255}));
}

TEST(Conversion, RgbToGrayIsTheGrayscaleOpsFormula) {
  Image src(2, 1, 4, Depth::U8);
  src.data = {10, 20, 30, 0, 255, 255, 255, 7};
  EXPECT_EQ(convert_layout(src, 1, Depth::U8).data, (std::vector<std::uint8_t>{18, 255}));
  EXPECT_EQ(convert_layout(src, 2, Depth::U8).data, (std::vector<std::uint8_t>{18, 0, 255, 7}));
  // Writing RGB to PGM and --grayscale give the same bytes (Rec. 601's
  // (299, 587, 114) / 1000, used before, differed by 1 on some pixels).
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const int channels : {3, 4}) {
      const Image rgb = random_image(61, 7, channels, depth, 11 + channels);
      const Image gray = test::Oracle<Grayscale>::expected(rgb, {});
      EXPECT_EQ(convert_layout(rgb, gray.channels, depth).data, gray.data) << channels;
    }
}

TEST(Conversion, GrayToRgbRepeatsTheValueAndKeepsAlpha) {
  Image src(2, 1, 2, Depth::U8);
  src.data = {9, 200, 77, 0};
  EXPECT_EQ(convert_layout(src, 4, Depth::U8).data, (std::vector<std::uint8_t>{9, 9, 9, 200, 77, 77, 77, 0}));
}

// Formats gpuimg reads but never writes, built by hand: stb_image decodes
// them in every build, always as RGBA.
TEST(StbOnlyFormats, GifFirstFrameThroughItsPalette) {
  TempDir dir;
  const std::vector<std::uint8_t> gif = {
      'G', 'I', 'F', '8', '9', 'a', 2, 0, 1, 0, 0x80, 0, 0,  // 2x1, global palette of 2
      10, 20, 30, 200, 100, 50,                              // the palette
      0x2c, 0, 0, 0, 0, 2, 0, 1, 0, 0,                       // image descriptor
      2, 2, 0x44, 0x0a, 0, 0x3b};                            // LZW: clear, 0, 1, end; trailer
  std::ofstream(dir.file("a.gif"), std::ios::binary).write(reinterpret_cast<const char*>(gif.data()), gif.size());
  const Image img = read_image(dir.file("a.gif"));
  ASSERT_EQ(img.width, 2);
  ASSERT_EQ(img.height, 1);
  ASSERT_EQ(img.channels, 4);
  EXPECT_EQ(img.data, (std::vector<std::uint8_t>{10, 20, 30, 255, 200, 100, 50, 255}));
}

// Written by hand so the stb build (which cannot write PNM) reads one too.
TEST(PnmInput, SixteenBitSamplesComeOutInHostOrder) {
  TempDir dir;
  const std::string pgm = std::string("P5\n# gpuimg\n2 1\n65535\n") + std::string("\x01\x02\xff\x00", 4);
  std::ofstream(dir.file("a.pgm"), std::ios::binary) << pgm;
  const Image img = read_image(dir.file("a.pgm"));
  ASSERT_EQ(img.channels, 1);
  ASSERT_EQ(img.depth, Depth::U16);
  EXPECT_EQ(img.samples<std::uint16_t>()[0], 0x0102);
  EXPECT_EQ(img.samples<std::uint16_t>()[1], 0xff00);
}

TEST(WriteImage, ExtensionIsCaseInsensitiveAndContentDecidesOnRead) {
  TempDir dir;
  const Image src = random_image(5, 4, 3, Depth::U8, 7);
  write_image(dir.file("upper.PNG"), src);
  fs::rename(dir.file("upper.PNG"), dir.file("misnamed.jpg"));
  EXPECT_EQ(read_image(dir.file("misnamed.jpg")).data, src.data);
}

TEST(WriteImage, NewFileGetsTheUmaskModeAndNoTemporaryIsLeft) {
  TempDir dir;
  const Image src = random_image(3, 3, 1, Depth::U8, 3);
  for (mode_t mask : {mode_t{022}, mode_t{077}}) {
    fs::remove(dir.file("m.png"));  // new each time: a file replaced keeps its mode
    const mode_t old = ::umask(mask);
    write_image(dir.file("m.png"), src);
    ::umask(old);
    struct stat st {};
    ASSERT_EQ(::stat(dir.file("m.png").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
  }
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"m.png"});
}

// `chmod 600 out.png` must survive a run: the replacement takes the old
// file's permission bits (even ones the umask would clear), not the umask's.
TEST(WriteImage, ReplacingAFileKeepsItsPermissionBits) {
  TempDir dir;
  const Image src = random_image(3, 3, 1, Depth::U8, 3);
  const mode_t old_mask = ::umask(022);
  // Set-user/group-ID bits are dropped: the new file has a new owner.
  for (const auto& [before, after] : std::vector<std::pair<mode_t, mode_t>>{
           {0600, 0600}, {0640, 0640}, {0444, 0444}, {0666, 0666}, {0755, 0755}, {06755, 0755}}) {
    SCOPED_TRACE(std::to_string(before));
    std::ofstream(dir.file("p.png")) << "old";
    ASSERT_EQ(::chmod(dir.file("p.png").c_str(), before), 0);
    write_image(dir.file("p.png"), src);
    struct stat st {};
    ASSERT_EQ(::stat(dir.file("p.png").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, after);
    EXPECT_EQ(read_image(dir.file("p.png")).data, src.data);
    fs::remove(dir.file("p.png"));
  }
  ::umask(old_mask);
  EXPECT_EQ(dir.names(), std::vector<std::string>{});  // no temporary left
}

// A symlink at the output path is replaced by a new file, not followed, so
// the new file's mode is a new file's and the link's target is untouched.
TEST(WriteImage, ReplacingASymlinkMakesANewFile) {
  TempDir dir;
  std::ofstream(dir.file("target")) << "target";
  ASSERT_EQ(::chmod(dir.file("target").c_str(), 0600), 0);
  fs::create_symlink(dir.file("target"), dir.file("link.png"));
  const mode_t old_mask = ::umask(022);
  write_image(dir.file("link.png"), random_image(3, 3, 1, Depth::U8, 4));
  ::umask(old_mask);
  struct stat st {};
  ASSERT_EQ(::lstat(dir.file("link.png").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  EXPECT_EQ(file_bytes(dir.file("target")), (std::vector<std::uint8_t>{'t', 'a', 'r', 'g', 'e', 't'}));
}

// Process substitution (`gpuimg <(curl ...) out.png`) hands gpuimg a pipe.
TEST(ReadImage, ReadsAPipe) {
  TempDir dir;
  const Image src = random_image(9, 5, 3, Depth::U16, 5);
  write_image(dir.file("src.png"), src);
  const std::vector<std::uint8_t> png = file_bytes(dir.file("src.png"));
  const test::FifoFeeder feeder(dir.file("pipe"), png, png.size());
  EXPECT_EQ(read_image(dir.file("pipe")).data, src.data);
}

TEST(WriteImage, ReplacesAnExistingFile) {
  TempDir dir;
  std::ofstream(dir.file("out.png")) << "old contents";
  const Image src = random_image(4, 4, 4, Depth::U16, 11);
  write_image(dir.file("out.png"), src);
  EXPECT_EQ(read_image(dir.file("out.png")).data, src.data);
}

TEST(Extensions, ListWhatThisBuildWrites) {
#if GPUIMG_WITH_TIFF
  const std::vector<std::string> writable = {"png", "jpg", "jpeg", "tif", "tiff", "webp", "bmp", "pgm", "ppm", "pnm", "tga"};
#else
  const std::vector<std::string> writable = {"png", "jpg", "jpeg", "webp", "bmp", "pgm", "ppm", "pnm", "tga"};
#endif
  std::vector<std::string> readable = {"png", "jpg", "jpeg", "bmp", "pgm", "ppm", "pnm", "tga", "psd", "gif"};
#if GPUIMG_WITH_TIFF
  readable.insert(readable.end(), {"tif", "tiff"});
#endif
  readable.push_back("webp");
  EXPECT_EQ(writable_extensions(), writable);
  EXPECT_EQ(readable_extensions(), readable);
}

TEST(Versions, NameEveryCodecLibrary) {
  const std::string v = codec_versions();
  EXPECT_EQ(v.rfind("libpng 1.6.", 0), 0u) << v;
  EXPECT_NE(v.find(", libjpeg-turbo 2."), std::string::npos) << v;
  EXPECT_NE(v.find("stb_image 2.27"), std::string::npos) << v;
#if GPUIMG_WITH_TIFF
  EXPECT_NE(v.find(", libtiff 4."), std::string::npos) << v;
#endif
  EXPECT_NE(v.find(", libwebp 1."), std::string::npos) << v;
  EXPECT_EQ(v.find("OpenCV"), std::string::npos) << v;
}

TEST(CheckOutputPath, AcceptsAWritableDirectoryAndAnyCaseOfExtension) {
  TempDir dir;
  EXPECT_NO_THROW(check_output_path(dir.file("a.PNG")));
  EXPECT_NO_THROW(check_output_path(dir.file("b.tga")));
}

TEST(FileUtil, LowerExtension) {
  EXPECT_EQ(lower_extension("a/b.JPEG"), "jpeg");
  EXPECT_EQ(lower_extension("x.tar.PnG"), "png");
  EXPECT_EQ(lower_extension("dir.d/noext"), "");
  EXPECT_EQ(lower_extension(".png"), "");
  EXPECT_EQ(lower_extension("out."), "");
}

TEST(FileUtil, ParentDirectory) {
  EXPECT_EQ(parent_directory("a/b.png"), "a");
  EXPECT_EQ(parent_directory("b.png"), ".");
  EXPECT_EQ(parent_directory("/b.png"), "/");
  EXPECT_EQ(parent_directory("/x/y/b.png"), "/x/y");
}

TEST(FileUtil, SameFileFollowsLinksAndNeedsBothToExist) {
  TempDir dir;
  std::ofstream(dir.file("a")) << "a";
  std::ofstream(dir.file("b")) << "a";
  fs::create_hard_link(dir.file("a"), dir.file("hard"));
  fs::create_symlink(dir.file("a"), dir.file("soft"));
  EXPECT_TRUE(same_file(dir.file("a"), dir.file("a")));
  EXPECT_TRUE(same_file(dir.file("a"), dir.path().string() + "/./a"));
  EXPECT_TRUE(same_file(dir.file("a"), dir.file("hard")));
  EXPECT_TRUE(same_file(dir.file("soft"), dir.file("a")));
  EXPECT_FALSE(same_file(dir.file("a"), dir.file("b")));
  EXPECT_FALSE(same_file(dir.file("a"), dir.file("missing")));
  EXPECT_FALSE(same_file(dir.file("missing"), dir.file("missing")));
}

}  // namespace
}  // namespace gpuimg
