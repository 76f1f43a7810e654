// Files a hostile user would craft: each is refused with one line, before
// memory grows with what its header claims, and none is ever decoded into
// pixels the file does not hold. Each case is one of issue 23's findings.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <filesystem>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "codec.hpp"
#include "crafted_files.hpp"
#include "error.hpp"
#include "error_text.hpp"
#include "fifo_feeder.hpp"
#include "metadata.hpp"
#include "metadata_files.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"
#include "sanitizers.hpp"
#include "temp_dir.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;
using namespace test;

Bytes deflate(const Bytes& raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  Bytes out(size);
  EXPECT_EQ(compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 9), Z_OK);
  return Bytes(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(size));  // no spare capacity: see peak_rss_kib
}

// ---- truncated files decoded by stb_image: no invented pixels ---------------

// An uncompressed 100x100 24-bit TGA's header, with an image ID of `id_len`.
Bytes tga_header(std::uint8_t id_len = 0) {
  Bytes b = {id_len, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  put_le(b, 100, 2);
  put_le(b, 100, 2);
  b.push_back(24);
  b.push_back(0x20);  // top-left origin
  b.insert(b.end(), id_len, 'x');
  return b;
}

TEST(HostileInput, TgaShorterThanItsHeaderSizeIsRefusedBeforeDecoding) {
  TempDir dir;
  Bytes tga = tga_header();
  tga.insert(tga.end(), 6, 0x7f);
  save(dir.file("t.tga"), tga);
  EXPECT_EQ(read_error(dir.file("t.tga")),
            dir.file("t.tga") + ": truncated TGA (a 100x100 image needs at least 30018 bytes; the file has 24)");
}

// Past the least its header allows (its image ID is not counted), the cut
// is found by stb_image's own reads running past the end.
TEST(HostileInput, TgaCutInItsPixelsIsRefused) {
  TempDir dir;
  Bytes whole = tga_header(255);
  const Image img = random_image(100, 100, 3, Depth::U8, 23);
  for (std::size_t i = 0; i < img.data.size(); i += 3)
    for (int c = 2; c >= 0; --c) whole.push_back(img.data[i + static_cast<std::size_t>(c)]);  // TGA stores BGR
  save(dir.file("whole.tga"), whole);
  EXPECT_EQ(read_image(dir.file("whole.tga")).data, img.data);
  save(dir.file("cut.tga"), Bytes(whole.begin(), whole.begin() + 30100));
  EXPECT_EQ(read_error(dir.file("cut.tga")), dir.file("cut.tga") + ": truncated TGA");
}

TEST(HostileInput, RunLengthTgaCutShortIsRefused) {
  TempDir dir;
  const Image img = random_image(100, 100, 3, Depth::U8, 24);
  write_image(dir.file("whole.tga"), img);  // stb_image_write's RLE
  const Bytes whole = load(dir.file("whole.tga"));
  EXPECT_EQ(read_image(dir.file("whole.tga")).data, img.data);
  for (std::size_t cut : {whole.size() / 2, whole.size() - 1}) {
    save(dir.file("cut.tga"), Bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(cut)));
    EXPECT_EQ(read_error(dir.file("cut.tga")), dir.file("cut.tga") + ": truncated TGA") << cut;
  }
}

TEST(HostileInput, PsdHeaderClaimingAHugeImageIsRefusedBeforeDecoding) {
  TempDir dir;
  save(dir.file("h.psd"), psd_file(16384, 16384, 3, 8, {}));
  EXPECT_EQ(read_error(dir.file("h.psd")),
            dir.file("h.psd") + ": truncated PSD (a 16384x16384 image needs at least 805306408 bytes; the file has 40)");
}

TEST(HostileInput, PsdCutInItsPixelsIsRefused) {
  TempDir dir;
  std::vector<std::uint16_t> planar(3 * 40 * 30);
  for (std::size_t i = 0; i < planar.size(); ++i) planar[i] = static_cast<std::uint16_t>(i * 7 % 251);
  const Bytes raw = psd_file(40, 30, 3, 8, planar);
  save(dir.file("raw.psd"), Bytes(raw.begin(), raw.end() - 1));
  EXPECT_EQ(read_error(dir.file("raw.psd")),
            dir.file("raw.psd") + ": truncated PSD (a 40x30 image needs at least 3640 bytes; the file has 3639)");
  // PackBits rows of one literal packet each (129 bytes for 128 samples):
  // past the least such a file can be, the cut shows in the rows.
  std::vector<Bytes> rows(3 * 30, Bytes{127});
  for (Bytes& row : rows) row.resize(129, 9);
  const Bytes rle = psd_packbits_file(128, 30, 3, rows);
  save(dir.file("whole.psd"), rle);
  EXPECT_EQ(read_image(dir.file("whole.psd")).data, Bytes(128 * 30 * 3, 9));
  save(dir.file("cut.psd"), Bytes(rle.begin(), rle.end() - 1000));
  EXPECT_EQ(read_error(dir.file("cut.psd")), dir.file("cut.psd") + ": truncated PSD");
}

TEST(HostileInput, GifCutInItsPixelsIsRefused) {
  TempDir dir;
  const Bytes gif = {'G', 'I', 'F', '8', '9', 'a', 2, 0, 1, 0, 0x80, 0, 0, 10, 20, 30, 200, 100, 50,
                     0x2c, 0, 0, 0, 0, 2, 0, 1, 0, 0, 2, 2, 0x44, 0x0a, 0, 0x3b};
  save(dir.file("whole.gif"), gif);
  EXPECT_EQ(read_image(dir.file("whole.gif")).width, 2);
  save(dir.file("cut.gif"), Bytes(gif.begin(), gif.begin() + 32));  // the second LZW byte is gone
  EXPECT_EQ(read_error(dir.file("cut.gif")), dir.file("cut.gif") + ": truncated GIF");
}

// ---- the size checked is the size decoded -----------------------------------

TEST(HostileInput, DuplicatedTiffSizeTagsCountTheFirstAsLibtiffDoes) {
  TempDir dir;
  const Bytes pixels = {1, 2, 3, 4};
  save(dir.file("dup.tif"), gray_tiff({{256, 4, 30000}, {257, 4, 30000}, {256, 4, 2}, {257, 4, 2}}, 2, 2, pixels));
  EXPECT_EQ(read_error(dir.file("dup.tif")),
            dir.file("dup.tif") + ": image is 30000x30000 (900000000 pixels), over the limit of 268435456 set by --max-pixels");
#if GPUIMG_WITH_TIFF
  // And the decoder agrees: the first pair is the image.
  save(dir.file("agree.tif"), gray_tiff({{256, 3, 2}, {257, 3, 2}, {256, 3, 3}, {257, 3, 3}}, 2, 2, pixels));
  const InputFile input = read_input(dir.file("agree.tif"));
  ASSERT_TRUE(input.shape);
  EXPECT_EQ(input.shape->width, 2u);
  EXPECT_EQ(input.shape->height, 2u);
  const Image img = decode_input(input);
  EXPECT_EQ(img.width, 2);
  EXPECT_EQ(img.height, 2);
  EXPECT_EQ(img.data, pixels);
#endif
}

TEST(HostileInput, SignedTiffSizeTagsAreReadBeforeDecoding) {
  TempDir dir;
  save(dir.file("s.tif"), gray_tiff({{256, 9, 30000}, {257, 8, 30000}}, 2, 2, {1, 2, 3, 4}));
  EXPECT_EQ(read_error(dir.file("s.tif")),
            dir.file("s.tif") + ": image is 30000x30000 (900000000 pixels), over the limit of 268435456 set by --max-pixels");
  for (const auto& [type, value] : {std::pair{1, 2u}, {6, 2u}, {8, 2u}, {9, 2u}}) {
    save(dir.file("t.tif"), gray_tiff({{256, static_cast<std::uint16_t>(type), value}, {257, 3, 2}}, 2, 2, {1, 2, 3, 4}));
    const InputFile input = read_input(dir.file("t.tif"));
    ASSERT_TRUE(input.shape) << "type " << type;
    EXPECT_EQ(input.shape->width, 2u) << "type " << type;
  }
#if GPUIMG_WITH_TIFF
  EXPECT_EQ(read_image(dir.file("t.tif")).data, (Bytes{1, 2, 3, 4}));
  // A negative size: libtiff refuses the directory, and so the file is
  // refused before libtiff sees it.
  save(dir.file("neg.tif"), gray_tiff({{256, 8, 0xfffe}, {257, 3, 2}}, 2, 2, {1, 2, 3, 4}));
  EXPECT_EQ(read_error(dir.file("neg.tif")), dir.file("neg.tif") + ": corrupt or truncated TIFF (no image size in its header)");
#endif
}

TEST(HostileInput, PnmCommentGluedToTheWidthIsReadAsTheDecoderReadsIt) {
  TempDir dir;
  const std::string p4 = "P4\n4000#4000\n1\n";
  save(dir.file("g.pbm"), Bytes(p4.begin(), p4.end()));
  EXPECT_THAT(read_error(dir.file("g.pbm"), ReadOptions{1000000}), testing::HasSubstr(dir.file("g.pbm") + ": "));
}

// Whatever a header said, the decoded image meets the limit: here the
// probe's shape is forged small, as a header reader disagreeing with its
// decoder would make it.
TEST(HostileInput, DecodedSizeIsCheckedWhateverTheHeaderSaid) {
  TempDir dir;
  write_image(dir.file("ten.png"), random_image(10, 10, 3, Depth::U8, 3));
  InputFile input = read_input(dir.file("ten.png"));
  ASSERT_TRUE(input.shape);
  input.shape->width = input.shape->height = 1;
  try {
    decode_input(input, ReadOptions{50});
    ADD_FAILURE() << "decoded past the limit";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              dir.file("ten.png") + ": image is 10x10 (100 pixels), over the limit of 50 set by --max-pixels");
  }
}

// A JPEG of 101 scans (its one scan repeated) is refused before libjpeg
// makes a pass for each; one scan decodes.
TEST(HostileInput, JpegOfManyScansIsRefusedBeforeDecoding) {
  TempDir dir;
  write_image(dir.file("one.jpg"), random_image(16, 16, 3, Depth::U8, 9));
  const Bytes one = load(dir.file("one.jpg"));
  const std::size_t sos = find_segment(one, 0xda);
  ASSERT_LT(sos, one.size());
  Bytes many(one.begin(), one.begin() + static_cast<std::ptrdiff_t>(sos));
  for (int i = 0; i < 101; ++i) many.insert(many.end(), one.begin() + static_cast<std::ptrdiff_t>(sos), one.end() - 2);
  many.insert(many.end(), {0xff, 0xd9});
  save(dir.file("many.jpg"), many);
  EXPECT_EQ(read_error(dir.file("many.jpg")), dir.file("many.jpg") + ": JPEG with 101 scans, over the 100 gpuimg decodes");
}

// libjpeg fills a component that no scan gives values with mid-gray and
// says nothing: here the one scan names only the first of three.
TEST(HostileInput, JpegComponentInNoScanIsRefused) {
  TempDir dir;
  write_image(dir.file("rgb.jpg"), random_image(16, 16, 3, Depth::U8, 10));
  Bytes jpg = load(dir.file("rgb.jpg"));
  const std::size_t sos = find_segment(jpg, 0xda);
  ASSERT_LT(sos, jpg.size());
  ASSERT_EQ(jpg[sos + 4], 3);  // Ns: every component in one scan
  jpg[sos + 3] -= 4;           // the segment loses two selectors
  jpg[sos + 4] = 1;
  jpg.erase(jpg.begin() + static_cast<std::ptrdiff_t>(sos + 7), jpg.begin() + static_cast<std::ptrdiff_t>(sos + 11));
  save(dir.file("one.jpg"), jpg);
  EXPECT_EQ(read_error(dir.file("one.jpg")), dir.file("one.jpg") + ": corrupt JPEG (component 2 is in no scan that gives its values)");
}

TEST(HostileInput, BmpHeaderClaimingAHugeImageIsRefusedBeforeDecoding) {
  TempDir dir;
  Bytes bmp = {'B', 'M'};
  put_le(bmp, 54, 4);
  put_le(bmp, 0, 4);
  put_le(bmp, 54, 4);
  for (const std::uint64_t v : {40, 16384, 16384}) put_le(bmp, v, 4);
  put_le(bmp, 1, 2);
  put_le(bmp, 24, 2);
  bmp.resize(54 + 100, 0);
  save(dir.file("h.bmp"), bmp);
  // Its 54 bytes of header, then 16384 rows of 49152 bytes.
  EXPECT_EQ(read_error(dir.file("h.bmp")),
            dir.file("h.bmp") + ": truncated BMP (a 16384x16384 image needs at least 805306422 bytes; the file has 154)");
}

// Sides stb_image refuses get the header's reason, not stb's last
// complaint, which names another format ("not GIF").
TEST(HostileInput, BmpWithNoOrNegativeSidesSaysWhichSide) {
  TempDir dir;
  const auto bmp_of = [](std::uint32_t width, std::uint32_t height) {
    Bytes bmp = {'B', 'M'};
    put_le(bmp, 58, 4);
    put_le(bmp, 0, 4);
    put_le(bmp, 54, 4);
    for (const std::uint64_t v : {std::uint32_t{40}, width, height}) put_le(bmp, v, 4);
    put_le(bmp, 1, 2);
    put_le(bmp, 24, 2);
    bmp.resize(58, 0);
    return bmp;
  };
  const std::string none = "image has no pixels (width or height 0)";
  for (const auto& [width, height, says] : std::vector<std::tuple<std::uint32_t, std::uint32_t, std::string>>{
           {0, 1, none},
           {1, 0, none},
           {0xfffffffdu, 1, "corrupt BMP (negative width, -3)"},
           {1, 0x80000000u, "corrupt BMP (height -2^31, which no top-down image can have)"}}) {
    save(dir.file("s.bmp"), bmp_of(width, height));
    EXPECT_EQ(read_error(dir.file("s.bmp")), dir.file("s.bmp") + ": " + says) << width << "x" << height;
  }
  save(dir.file("s.bmp"), bmp_of(1, 0xffffffffu));  // top-down, one row: read
  EXPECT_EQ(read_image(dir.file("s.bmp")).height, 1);
}

// A TIFF is decoded through a buffer of one tile or strip beside the image
// (OpenCV's, before libtiff read TIFF directly, as large as RowsPerStrip
// said): a 1x1 image in one huge tile or strip is refused from its tags.
TEST(HostileInput, TiffTileOrStripFarLargerThanItsImageIsRefused) {
  TempDir dir;
  save(dir.file("strip.tif"), gray_tiff({{256, 4, 1}, {257, 4, 1}, {278, 4, 1u << 23}}, 1, 1, {7}));
  EXPECT_EQ(read_error(dir.file("strip.tif")),
            dir.file("strip.tif") + ": TIFF decoded in blocks of 1x8388608 pixels, larger than its 1x1 image and than 2^22 pixels");
  save(dir.file("tile.tif"), gray_tiff({{256, 4, 1}, {257, 4, 1}, {322, 4, 16384}, {323, 4, 16368}}, 1, 1, {7}));
  EXPECT_EQ(read_error(dir.file("tile.tif")),
            dir.file("tile.tif") + ": TIFF decoded in blocks of 16384x16368 pixels, larger than its 1x1 image and than 2^22 pixels");
#if GPUIMG_WITH_TIFF
  // One strip, whatever RowsPerStrip past the height says, decodes.
  for (const std::uint32_t rows : {2u, 5u, 0xffffffffu}) {
    save(dir.file("ok.tif"), gray_tiff({{256, 4, 2}, {257, 4, 2}, {278, 4, rows}}, 2, 2, {1, 2, 3, 4}));
    EXPECT_EQ(read_image(dir.file("ok.tif")).data, (Bytes{1, 2, 3, 4})) << rows;
  }
#endif
}

TEST(HostileInput, PsdSidePastAnIntIsRefused) {
  TempDir dir;
  save(dir.file("wide.psd"), psd_file(-1, 1, 3, 8, {}));  // 2^32 - 1 wide
  EXPECT_EQ(read_error(dir.file("wide.psd"), ReadOptions{std::uint64_t{1} << 40}),
            dir.file("wide.psd") + ": PSD of 4294967295x1 is not supported (sides up to 2^31 - 1)");
}

// ---- PNG chunks ---------------------------------------------------------------

TEST(HostileInput, PngChunkClaimingAGigabyteIsRefusedBeforeLibpngAllocatesIt) {
  TempDir dir;
  for (const char* type : {"tEXt", "zTXt", "iTXt", "pCAL", "sCAL", "sPLT", "iCCP"}) {
    Bytes png = png_header(1, 1);
    put_png_chunk(png, type, {'a', 0, 'b'}, std::int64_t{1} << 30);
    save(dir.file("c.png"), png);
    EXPECT_EQ(read_error(dir.file("c.png")), dir.file("c.png") + ": truncated PNG (chunk '" + type +
                                                 "' at byte 33 claims 1073741824 bytes; 7 follow)");
  }
}

// A 1x1 8-bit palette PNG whose one pixel holds `index`, with `entries`
// palette entries.
Bytes palette_png(std::uint8_t index, int entries) {
  Bytes png = png_header(1, 1, 8, 3);
  put_png_chunk(png, "PLTE", Bytes(static_cast<std::size_t>(3 * entries), 200));
  put_png_chunk(png, "IDAT", deflate({0, index}));
  put_png_chunk(png, "IEND", {});
  return png;
}

TEST(HostileInput, PaletteIndexPastThePaletteIsRefused) {
  TempDir dir;
  save(dir.file("ok.png"), palette_png(1, 2));
  EXPECT_EQ(read_image(dir.file("ok.png")).data, (Bytes{200, 200, 200}));
  save(dir.file("bad.png"), palette_png(5, 2));
  EXPECT_EQ(read_error(dir.file("bad.png")),
            dir.file("bad.png") + ": corrupt PNG (palette index 5 is past the palette's 2 entries)");
}

// ---- the whole process: exit 1, one line, nothing written, bounded memory ----

#if GPUIMG_ADDRESS_SANITIZER
#define SKIP_WHERE_RSS_IS_NOT_THE_PROGRAMS() GTEST_SKIP() << "AddressSanitizer's shadow memory is no measure of the program's own"
#else
#define SKIP_WHERE_RSS_IS_NOT_THE_PROGRAMS() static_cast<void>(0)
#endif

// The peak RSS of a run on a 1x1 PNG: what any run costs before its input.
// Every run measured is on the CPU: a large header makes --device auto
// start CUDA beside decoding, whose context (some 56 MB on the H100
// machine) is no part of what a file may cost.
long baseline_peak_kib(const TempDir& dir) {
  write_image(dir.file("small.png"), random_image(1, 1, 3, Depth::U8, 1));
  const RunResult base = run_binary({dir.file("small.png"), "--invert", dir.file("base.png"), "--device", "cpu"});
  EXPECT_EQ(base.status, 0) << base.err;
  return base.peak_rss_kib;
}

// Over a run's baseline, what reading and checking a hostile file may add:
// never the gigabytes its header claims.
constexpr long kFewMegabytesKib = 48 * 1024;

class HostileFile : public testing::TestWithParam<std::pair<const char*, std::function<void(const std::string&)>>> {};

TEST_P(HostileFile, FailsInBoundedMemory) {
  SKIP_WHERE_RSS_IS_NOT_THE_PROGRAMS();
  TempDir dir;
  const long base_kib = baseline_peak_kib(dir);

  GetParam().second(dir.file("in"));
  const RunResult r = run_binary({dir.file("in"), "--invert", dir.file("out.png"), "--device", "cpu"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_THAT(r.err, testing::StartsWith("gpuimg: " + dir.file("in") + ": "));
  EXPECT_FALSE(fs::exists(dir.file("out.png")));
  EXPECT_LT(r.peak_rss_kib, base_kib + kFewMegabytesKib) << r.err;
}

void write_bytes(const std::string& path, const Bytes& b) { save(path, b); }

INSTANTIATE_TEST_SUITE_P(
    , HostileFile,
    testing::Values(
        std::pair{"truncated_tga", std::function<void(const std::string&)>([](const std::string& p) {
                    Bytes b = tga_header();
                    b.resize(24, 0x7f);
                    write_bytes(p, b);
                  })},
        std::pair{"psd_header", std::function<void(const std::string&)>(
                                    [](const std::string& p) { write_bytes(p, psd_file(16384, 16384, 3, 8, {})); })},
        std::pair{"duplicated_tiff_tags", std::function<void(const std::string&)>([](const std::string& p) {
                    write_bytes(p, gray_tiff({{256, 4, 30000}, {257, 4, 30000}, {256, 4, 2}, {257, 4, 2}}, 2, 2, Bytes(4)));
                  })},
        std::pair{"signed_tiff_tags", std::function<void(const std::string&)>([](const std::string& p) {
                    write_bytes(p, gray_tiff({{256, 9, 16000}, {257, 8, 16000}}, 2, 2, Bytes(4)));
                  })},
        std::pair{"tiff_deflate_claiming_8000x8000", std::function<void(const std::string&)>([](const std::string& p) {
                    write_bytes(p, tiff_claiming(8000, 8, 100));
                  })},
        std::pair{"png_text_claiming_2_30", std::function<void(const std::string&)>([](const std::string& p) {
                    Bytes png = png_header(1, 1);
                    put_png_chunk(png, "tEXt", {'a', 0, 'b'}, std::int64_t{1} << 30);
                    write_bytes(p, png);
                  })},
        std::pair{"dev_zero", std::function<void(const std::string&)>(
                                  [](const std::string& p) { fs::create_symlink("/dev/zero", p); })},
        std::pair{"dev_urandom", std::function<void(const std::string&)>(
                                     [](const std::string& p) { fs::create_symlink("/dev/urandom", p); })}),
    [](const testing::TestParamInfo<HostileFile::ParamType>& info) { return std::string(info.param.first); });

// libpng's own crasher files, published for readers to test against.
class LibpngCrasher : public testing::TestWithParam<std::string> {};

TEST_P(LibpngCrasher, FailsCleanlyInBoundedMemory) {
  SKIP_WHERE_RSS_IS_NOT_THE_PROGRAMS();
  TempDir dir;
  const long base_kib = baseline_peak_kib(dir);

  const fs::path file = fs::path(GPUIMG_TEST_DATA_DIR) / "libpng-crashers" / GetParam();
  const RunResult r = run_binary({file.string(), "--invert", dir.file("out.png"), "--device", "cpu"});
  const bool sound = GetParam() == "empty_ancillary_chunks.png";
  EXPECT_EQ(r.status, sound ? 0 : 1) << r.err;
  // The sound file's empty iCCP and pHYs chunks are each set aside with a warning (README, Metadata).
  if (sound) {
    EXPECT_THAT(r.err, testing::MatchesRegex("gpuimg: warning: [^\n]* iCCP [^\n]*\ngpuimg: warning: [^\n]* pHYs [^\n]*\n"))
        << r.err;
  } else {
    EXPECT_THAT(r.err, testing::MatchesRegex("gpuimg: .*: (truncated|corrupt) PNG[^\n]*\n"));
  }
  EXPECT_EQ(fs::exists(dir.file("out.png")), sound);
  EXPECT_LT(r.peak_rss_kib, base_kib + kFewMegabytesKib);
}

std::vector<std::string> libpng_crashers() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(fs::path(GPUIMG_TEST_DATA_DIR) / "libpng-crashers"))
    if (e.path().extension() == ".png") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(, LibpngCrasher, testing::ValuesIn(libpng_crashers()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.size() - 4);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// Text chunks are skipped unread: 100 zTXt chunks of 15 MiB each, which
// libpng used to inflate one after another for 25 s.
TEST(HostileInput, ManyTextChunksAreSkippedUnread) {
  TempDir dir;
  const Image img = random_image(1, 1, 3, Depth::U8, 2);
  write_image(dir.file("plain.png"), img);
  const Bytes plain = load(dir.file("plain.png"));
  Bytes ztxt = {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 0};
  const Bytes packed = deflate(Bytes(std::size_t{15} << 20, 'a'));
  ztxt.insert(ztxt.end(), packed.begin(), packed.end());
  Bytes png(plain.begin(), plain.begin() + 33);
  for (int i = 0; i < 100; ++i) put_png_chunk(png, "zTXt", ztxt);
  png.insert(png.end(), plain.begin() + 33, plain.end());
  save(dir.file("many.png"), png);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_image(dir.file("many.png")).data, img.data);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
}

// A zTXt chunk that inflates to 64 MiB: libpng stops at the chunk limit,
// skips the chunk, and the image itself decodes.
TEST(HostileInput, CompressedTextBombIsSkippedInBoundedMemory) {
  SKIP_WHERE_RSS_IS_NOT_THE_PROGRAMS();
  TempDir dir;
  const long base_kib = baseline_peak_kib(dir);

  const Bytes plain = load(dir.file("small.png"));
  Bytes png(plain.begin(), plain.begin() + 33);  // signature and IHDR
  Bytes ztxt = {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 0};
  const Bytes bomb = deflate(Bytes(std::size_t{64} << 20, 'a'));
  ztxt.insert(ztxt.end(), bomb.begin(), bomb.end());
  put_png_chunk(png, "zTXt", ztxt);
  png.insert(png.end(), plain.begin() + 33, plain.end());
  save(dir.file("bomb.png"), png);

  const RunResult r = run_binary({dir.file("bomb.png"), "--invert", dir.file("out.png"), "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_image(dir.file("out.png")).data, read_image(dir.file("base.png")).data);
  EXPECT_LT(r.peak_rss_kib, base_kib + kFewMegabytesKib);
}

// A manifest that is no text is refused from its first bytes; a text past
// 16 MiB is refused at the limit, never read on.
TEST(HostileInput, ManifestOfNoTextOrEndlessIsRefusedInBoundedMemory) {
  TempDir dir;
  fs::create_symlink("/dev/zero", dir.file("zero.txt"));
  RunResult r = run_binary({"golden", "check", dir.file("zero.txt")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: " + dir.file("zero.txt") + ": not a text manifest (a NUL byte at byte 0)\n");
  EXPECT_LT(r.seconds, 2.0);

  const test::FifoFeeder feeder(dir.file("endless.txt"), Bytes(1 << 16, '#'), std::uint64_t{1} << 40);
  r = run_binary({"golden", "check", dir.file("endless.txt")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: " + dir.file("endless.txt") +
                       ": input goes on past 16777216 bytes, more than a manifest may hold\n");
#if !GPUIMG_ADDRESS_SANITIZER
  EXPECT_TRUE(peak_rss_below(r, 200 * 1024)) << r.peak_rss_kib;
#endif

  const std::string text = "# fine\n" + std::string(4097, 'x') + "\n";
  save(dir.file("long.txt"), Bytes(text.begin(), text.end()));
  r = run_binary({"golden", "check", dir.file("long.txt")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: " + dir.file("long.txt") + ":2: line of 4097 bytes, over the 4096 a manifest line may hold\n");
}

// ---- metadata: set aside with one warning, the image still written ---------

// `gpuimg in out.png`: exit 0, the warning expected (none for ""), and what of the metadata came through.
FileItems run_past_metadata(const TempDir& dir, const Bytes& file, const std::string& ext, const std::string& warning) {
  save(dir.file("in." + ext), file);
  const RunResult r = run_binary({dir.file("in." + ext), dir.file("out.png"), "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, warning.empty() ? "" : "gpuimg: warning: " + dir.file("in." + ext) + ": ignored " + warning +
                                              " (-q: no warnings)\n");
  return png_items(load(dir.file("out.png")));
}

// A JPEG whose 140000-byte profile libjpeg-turbo cut into three APP2
// chunks, and where each chunk's segment starts.
struct ChunkedJpeg {
  Bytes jpg;
  std::vector<std::size_t> chunks;
  explicit ChunkedJpeg(const TempDir& dir) {
    Metadata m;
    m.icc = icc_profile(140000);
    write_image(dir.file("chunked.jpg"), random_image(5, 4, 3, Depth::U8, 9), WriteOptions{}, m);
    jpg = load(dir.file("chunked.jpg"));
    for (std::size_t at = find_segment(jpg, 0xe2); jpg[at + 1] == 0xe2; at += 2 + (std::size_t{jpg[at + 2]} << 8 | jpg[at + 3]))
      chunks.push_back(at);
  }
  std::uint8_t& number(int chunk) { return jpg[chunks[chunk] + 4 + 12]; }
  std::uint8_t& count(int chunk) { return jpg[chunks[chunk] + 4 + 13]; }
};

TEST(HostileMetadata, JpegIccChunksOfBadNumbersAreIgnored) {
  TempDir dir;
  ASSERT_EQ(ChunkedJpeg(dir).chunks.size(), 3u);
  const auto at = [](const ChunkedJpeg& f, int i) { return f.jpg.begin() + static_cast<std::ptrdiff_t>(f.chunks[i]); };
  const std::vector<std::pair<std::function<void(ChunkedJpeg&)>, std::string>> damage = {
      {[](ChunkedJpeg& f) { f.count(1) = 4; }, "chunks of 3 and of 4"},
      {[](ChunkedJpeg& f) { f.number(2) = 1; }, "chunk 1 twice"},
      {[](ChunkedJpeg& f) { f.number(0) = 0; }, "chunk 0 of 3"},
      {[](ChunkedJpeg& f) { f.number(2) = 9; }, "chunk 9 of 3"},
      {[&](ChunkedJpeg& f) { f.jpg.erase(at(f, 1), at(f, 2)); }, "1 of its 3 chunks missing"},
      // A segment of its identifier alone: no number, no count.
      {[&](ChunkedJpeg& f) {
         Bytes seg = {0xff, 0xe2, 0, 14};
         seg.insert(seg.end(), {'I', 'C', 'C', '_', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0});
         f.jpg.insert(at(f, 0), seg.begin(), seg.end());
       },
       "an ICC_PROFILE segment with no chunk number"},
  };
  for (const auto& [change, why] : damage) {
    ChunkedJpeg f(dir);
    change(f);
    EXPECT_TRUE(run_past_metadata(dir, f.jpg, "jpg", "the ICC profile of a JPEG (" + why + ")").icc.empty()) << why;
  }
}

// A batch warns as one image does, with or without -v, each warning a
// whole line before the file's -v line; -q silences it.
TEST(HostileMetadata, BatchWarnsOfDamagedMetadataWithoutVerbose) {
  TempDir dir;
  fs::create_directory(dir / "in");
  ChunkedJpeg f(dir);
  f.jpg.erase(f.jpg.begin() + static_cast<std::ptrdiff_t>(f.chunks[1]),
              f.jpg.begin() + static_cast<std::ptrdiff_t>(f.chunks[2]));
  save(dir.file("in/a.jpg"), f.jpg);
  write_image(dir.file("in/b.png"), random_image(3, 2, 3, Depth::U8, 4));
  const std::string warning = "gpuimg: warning: " + dir.file("in/a.jpg") +
                              ": ignored the ICC profile of a JPEG (1 of its 3 chunks missing) (-q: no warnings)\n";
  const std::vector<std::string> common = {dir.file("in"), "--device", "cpu", "--jobs", "2"};
  const auto batch = [&](const std::string& out, std::vector<std::string> flags) {
    std::vector<std::string> args = common;
    args.push_back(dir.file(out) + "/");
    args.insert(args.end(), flags.begin(), flags.end());
    const RunResult r = run_binary(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.err;
  };
  EXPECT_NE(batch("plain", {}).find(warning), std::string::npos);
  const std::string verbose = batch("verbose", {"-v"});
  EXPECT_NE(verbose.find(warning + "gpuimg: " + dir.file("in/a.jpg") + " -> "), std::string::npos) << verbose;
  EXPECT_EQ(std::count(verbose.begin(), verbose.end(), '\n'), 5) << verbose;  // device, 2 files, warning, summary
  EXPECT_EQ(batch("quiet", {"-q"}).find("warning"), std::string::npos);
}

TEST(HostileMetadata, JpegIccProfileShorterThanItsHeaderSaysIsIgnored) {
  TempDir dir;
  Metadata m;
  m.icc = icc_profile(1000);
  m.icc[3] = 0;  // the header now says 768 bytes
  write_image(dir.file("a.jpg"), random_image(3, 3, 3, Depth::U8, 1), WriteOptions{}, m);
  EXPECT_TRUE(run_past_metadata(dir, load(dir.file("a.jpg")), "jpg",
                                "the ICC profile of a JPEG (its header gives 768 bytes; it has 1000 bytes)")
                  .icc.empty());
}

// A PNG of `chunks` put between IHDR and the pixels.
Bytes png_with(const TempDir& dir, const Bytes& chunks) {
  write_image(dir.file("plain.png"), random_image(3, 2, 3, Depth::U8, 4));
  Bytes png = load(dir.file("plain.png"));
  png.insert(png.begin() + 33, chunks.begin(), chunks.end());  // after the signature and IHDR
  return png;
}

// Name "x", its NUL, method 0 (deflate), then the data.
Bytes iccp_data(const Bytes& compressed) {
  Bytes data(3 + compressed.size(), 0);
  data[0] = 'x';
  std::copy(compressed.begin(), compressed.end(), data.begin() + 3);
  return data;
}

TEST(HostileMetadata, PngChunksOfWrongCrcOrBadCompressionAreIgnored) {
  TempDir dir;
  Bytes chunks;
  put_png_chunk(chunks, "eXIf", exif_block(6));
  chunks[chunks.size() - 1] ^= 1;  // the CRC
  FileItems out = run_past_metadata(dir, png_with(dir, chunks), "png", "a PNG eXIf chunk with a wrong CRC");
  EXPECT_TRUE(out.exif.empty());

  chunks.clear();
  put_png_chunk(chunks, "iCCP", iccp_data(Bytes{0x78, 0x9c, 1, 2, 3, 4, 5}));
  out = run_past_metadata(dir, png_with(dir, chunks), "png",
                          "a PNG iCCP chunk whose compressed profile is corrupt or over 8,000,000 bytes");
  EXPECT_TRUE(out.icc.empty());

  // 64 MiB inflated from 64 KiB: stopped at 8,000,000 bytes.
  chunks.clear();
  put_png_chunk(chunks, "iCCP", iccp_data(deflate(Bytes(std::size_t{64} << 20, 0))));
  out = run_past_metadata(dir, png_with(dir, chunks), "png",
                          "a PNG iCCP chunk whose compressed profile is corrupt or over 8,000,000 bytes");
  EXPECT_TRUE(out.icc.empty());

  chunks.clear();
  Bytes itxt = {'X', 'M', 'L', ':', 'c', 'o', 'm', '.', 'a', 'd', 'o', 'b', 'e', '.', 'x', 'm', 'p', 0, 1, 0, 0, 0, 9, 9, 9};
  put_png_chunk(chunks, "iTXt", itxt);
  out = run_past_metadata(dir, png_with(dir, chunks), "png",
                          "a PNG XMP iTXt chunk whose compressed text is corrupt or over 8,000,000 bytes");
  EXPECT_TRUE(out.xmp.empty());

  // Uncompressed, its language and translated keyword never closed.
  chunks.clear();
  itxt = {'X', 'M', 'L', ':', 'c', 'o', 'm', '.', 'a', 'd', 'o', 'b', 'e', '.', 'x', 'm', 'p', 0, 0, 0, 'e', 'n'};
  put_png_chunk(chunks, "iTXt", itxt);
  out = run_past_metadata(dir, png_with(dir, chunks), "png", "a PNG XMP iTXt chunk cut short");
  EXPECT_TRUE(out.xmp.empty());
}

// EXIF blocks libexif must walk without reading past their end: IFD0's
// link to the next IFD pointing back at itself, an entry's data and the
// Exif IFD placed past the end, IFD0 past the end, a block of 2 bytes.
// Whatever libexif keeps of them, nothing crashes (the sanitizer build runs
// this too) and the image is written; a block of which it reads nothing at
// all is set aside.
TEST(HostileMetadata, ExifWithLoopsOrOffsetsPastItsEndIsSurvived) {
  TempDir dir;
  std::vector<Bytes> blocks;
  Bytes loop = exif_block(6);
  loop[8 + 2 + 2 * 12] = 8;  // next IFD: IFD0 again
  blocks.push_back(loop);
  Bytes far = exif_block(6);
  far[8 + 2 + 8] = 0xf0;  // Make's data at 0xf0 + 38: past the end
  far[8 + 2 + 11] = 0x7f;
  blocks.push_back(far);
  Bytes sub = exif_block(6);
  sub[8 + 2] = 0x69;  // Make becomes the Exif IFD pointer (0x8769), at 38: the end of the block
  sub[8 + 3] = 0x87;
  sub[8 + 4] = 4;     // LONG
  sub.resize(38);
  blocks.push_back(sub);
  blocks.push_back(Bytes{'I', 'I', 42, 0, 0xff, 0xff, 0xff, 0xff});  // IFD0 past the end
  blocks.push_back(Bytes{'M', 'M'});
  for (const Bytes& block : blocks) {
    Bytes chunks;
    put_png_chunk(chunks, "eXIf", block);
    save(dir.file("in.png"), png_with(dir, chunks));
    const RunResult r = run_binary({dir.file("in.png"), "--invert", dir.file("out.png"), "--device", "cpu"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.err, testing::MatchesRegex("(gpuimg: warning: [^\n]*: ignored the EXIF block \\([^\n]*\\) "
                                             "\\(-q: no warnings\\)\n)?"));
    EXPECT_TRUE(fs::exists(dir.file("out.png")));
  }
  for (std::size_t i = 3; i < blocks.size(); ++i) {
    Bytes chunks;
    put_png_chunk(chunks, "eXIf", blocks[i]);
    EXPECT_TRUE(run_past_metadata(dir, png_with(dir, chunks), "png", "the EXIF block (no entry libexif can read)").exif.empty());
  }
}

// WebP: a profile whose header gives another length is set aside as a
// JPEG's is; a file cut inside its last metadata chunk, or with that
// chunk's length claiming 2 GiB, is decoded or refused, never read past.
TEST(HostileMetadata, WebpMetadataChunksAreCheckedAndBounded) {
  TempDir dir;
  Metadata m;
  m.icc = icc_profile(1000);
  m.icc[3] = 0;  // the header now says 768 bytes
  m.xmp.assign(300, 'x');
  write_image(dir.file("a.webp"), random_image(3, 3, 3, Depth::U8, 1), WriteOptions{}, m);
  const Bytes webp = load(dir.file("a.webp"));
  EXPECT_TRUE(run_past_metadata(dir, webp, "webp", "the ICC profile of a WebP (its header gives 768 bytes; it has 1000 bytes)")
                  .icc.empty());
  Bytes cut(webp.begin(), webp.end() - 100);
  Bytes huge = webp;
  huge[webp.size() - 300 - 1] = 0x7f;  // the XMP chunk's length, its high byte
  for (const Bytes& file : {cut, huge}) {
    save(dir.file("in.webp"), file);
    const RunResult r = run_binary({dir.file("in.webp"), dir.file("out.png"), "--device", "cpu"});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.status << r.err;
  }
}

}  // namespace
}  // namespace gpuimg
