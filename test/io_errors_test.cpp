// Every way reading or writing can fail: the exact one-line message, nothing
// printed to the terminal, and no damage to files already there.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "codec.hpp"
#include "crafted_files.hpp"
#include "error.hpp"
#include "error_text.hpp"
#include "fifo_feeder.hpp"
#include "random_image.hpp"
#include "round_trip_extensions.hpp"
#include "temp_dir.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

using test::TempDir;

using test::random_image;
using namespace test;  // crafted_files.hpp

std::string write_error(const std::string& path, const Image& img = random_image(2, 2, 3, Depth::U8, 1)) {
  return error_of<OutputError>([&] { write_image(path, img); });
}

std::string check_error(const std::string& path) {
  return error_of<OutputError>([&] { check_output_path(path); });
}

// Offset of the first chunk of `type` in a PNG.
// The offset of the chunk after the one at `at`.
std::size_t next_chunk(const Bytes& png, std::size_t at) {
  return at + 12 + (std::size_t{png[at]} << 24 | png[at + 1] << 16 | png[at + 2] << 8 | png[at + 3]);
}

// The first chunk of `type` at or after the chunk at `from`; png.size() if none.
std::size_t find_chunk(const Bytes& png, const char* type, std::size_t from = 8) {
  for (std::size_t at = from; at + 8 <= png.size(); at = next_chunk(png, at))
    if (std::string(png.begin() + at + 4, png.begin() + at + 8) == type) return at;
  return png.size();
}

const std::string kWritable =
#if GPUIMG_WITH_TIFF
    "png, jpg, jpeg, tif, tiff, webp, bmp, pgm, ppm, pnm, tga";
#else
    "png, jpg, jpeg, webp, bmp, pgm, ppm, pnm, tga";
#endif

TEST(ReadErrors, MissingFile) {
  TempDir dir;
  EXPECT_EQ(read_error(dir.file("nope.png")), dir.file("nope.png") + ": no such file");
  EXPECT_EQ(read_error(dir.file("nodir/x.png")), dir.file("nodir/x.png") + ": no such file");
}

TEST(ReadErrors, Directory) {
  TempDir dir;
  fs::create_directory(dir.file("d.png"));
  EXPECT_EQ(read_error(dir.file("d.png")), dir.file("d.png") + ": is a directory");
}

TEST(ReadErrors, PermissionDenied) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: open() ignores file permissions";
  TempDir dir;
  save(dir.file("secret.png"), {1, 2, 3});
  fs::permissions(dir.file("secret.png"), fs::perms::none);
  EXPECT_EQ(read_error(dir.file("secret.png")), dir.file("secret.png") + ": permission denied");
}

TEST(ReadErrors, EmptyFile) {
  TempDir dir;
  save(dir.file("empty.png"), {});
  EXPECT_EQ(read_error(dir.file("empty.png")), dir.file("empty.png") + ": empty file (0 bytes)");
}

TEST(ReadErrors, RandomBytesNamedPng) {
  TempDir dir;
  std::mt19937 rng(42);
  Bytes noise(4096);
  for (std::uint8_t& b : noise) b = static_cast<std::uint8_t>(rng());
  save(dir.file("noise.png"), noise);
  EXPECT_EQ(read_error(dir.file("noise.png")), dir.file("noise.png") + ": not a recognised image format");
}

TEST(ReadErrors, ZeroWidth) {
  TempDir dir;
  save(dir.file("zero.pgm"), {'P', '5', ' ', '0', ' ', '5', ' ', '2', '5', '5', '\n'});
  EXPECT_EQ(read_error(dir.file("zero.pgm")), dir.file("zero.pgm") + ": image has no pixels (width or height 0)");
}

TEST(ReadErrors, RadianceHdrIsRefused) {
  TempDir dir;
  const std::string hdr = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n";
  save(dir.file("x.hdr"), Bytes(hdr.begin(), hdr.end()));
  EXPECT_EQ(read_error(dir.file("x.hdr")),
            dir.file("x.hdr") + ": Radiance HDR holds floating-point pixels, which gpuimg does not handle");
}

TEST(ReadErrors, TruncatedPng) {
  TempDir dir;
  write_image(dir.file("whole.png"), random_image(33, 17, 3, Depth::U8, 5));
  const Bytes png = load(dir.file("whole.png"));
  const std::size_t idat = find_chunk(png, "IDAT");
  const std::size_t iend = find_chunk(png, "IEND");
  ASSERT_LT(idat, iend);
  // Inside IHDR, inside its CRC, at the start of IDAT, inside IDAT, just
  // before IEND, and one byte short of the end.
  for (std::size_t cut : {std::size_t{20}, std::size_t{31}, idat, idat + 30, iend, png.size() - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut) + " of " + std::to_string(png.size()));
    save(dir.file("cut.png"), Bytes(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(cut)));
    // Shorter than the signature, IHDR and the least deflate can make of
    // 33 * 17 * 3 bytes (1032:1): refused from IHDR, before libpng runs.
    // Past that, the chunk cut short is named.
    const std::string least = " (a 33x17 image needs at least 34 bytes; the file has " + std::to_string(cut) + ")";
    const std::string message = read_error(dir.file("cut.png"));
    if (cut < 26) {
      EXPECT_EQ(message, dir.file("cut.png") + ": truncated PNG (chunk 'IHDR' at byte 8 claims 13 bytes; " +
                             std::to_string(cut - 16) + " follow)");
    } else if (cut < 34) {
      EXPECT_EQ(message, dir.file("cut.png") + ": truncated PNG" + least);
    } else {
      EXPECT_THAT(message, testing::StartsWith(dir.file("cut.png") + ": truncated PNG ("));
    }
  }
  save(dir.file("cut.png"), Bytes(png.begin(), png.begin() + 5));  // not even the signature
  EXPECT_EQ(read_error(dir.file("cut.png")), dir.file("cut.png") + ": not a recognised image format");
}

TEST(ReadErrors, CorruptPngIdat) {
  TempDir dir;
  write_image(dir.file("whole.png"), random_image(33, 17, 3, Depth::U8, 6));
  const Bytes png = load(dir.file("whole.png"));
  const std::size_t idat = find_chunk(png, "IDAT");
  const std::size_t len = std::size_t{png[idat]} << 24 | png[idat + 1] << 16 | png[idat + 2] << 8 | png[idat + 3];

  Bytes bad_crc = png;
  bad_crc[idat + 8 + len] ^= 0x01;  // first byte of the IDAT CRC
  save(dir.file("crc.png"), bad_crc);
  EXPECT_EQ(read_error(dir.file("crc.png")), dir.file("crc.png") + ": corrupt PNG (IDAT: CRC error)");

  // A wrong Adler-32 (the last 4 bytes of the last IDAT, as gpuimg writes
  // it) in chunks whose CRCs hold: zlib's own check fails.
  const std::size_t iend = find_chunk(png, "IEND");
  std::size_t last_idat = idat;
  for (std::size_t at = idat; at < iend; at = find_chunk(png, "IDAT", next_chunk(png, at))) last_idat = at;
  Bytes bad_sum = png;
  bad_sum[iend - 5] ^= 0x01;  // the checksum's last byte, just before the chunk's CRC
  const std::uint32_t crc = crc32(bad_sum.data() + last_idat + 4, iend - 4 - (last_idat + 4));
  for (int i = 0; i < 4; ++i) bad_sum[iend - 4 + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
  save(dir.file("sum.png"), bad_sum);
  EXPECT_EQ(read_error(dir.file("sum.png")), dir.file("sum.png") + ": corrupt PNG (IDAT: incorrect data check)");

  // Damage inside the compressed data fails as soon as it shows, however it shows.
  Bytes bad_data = png;
  bad_data[idat + 8 + len / 2] ^= 0x10;
  save(dir.file("data.png"), bad_data);
  EXPECT_EQ(read_error(dir.file("data.png")).rfind(dir.file("data.png") + ": corrupt PNG (", 0), 0u);
}

TEST(ReadErrors, TruncatedJpeg) {
  TempDir dir;
  write_image(dir.file("whole.jpg"), random_image(64, 48, 3, Depth::U8, 8));
  const Bytes jpg = load(dir.file("whole.jpg"));
  for (std::size_t cut : {std::size_t{40}, jpg.size() / 2, jpg.size() - 2, jpg.size() - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut) + " of " + std::to_string(jpg.size()));
    save(dir.file("cut.jpg"), Bytes(jpg.begin(), jpg.begin() + static_cast<std::ptrdiff_t>(cut)));
    EXPECT_EQ(read_error(dir.file("cut.jpg")), dir.file("cut.jpg") + ": truncated JPEG (no end-of-image marker)");
  }
}

// A WebP cut short is named by the size its RIFF header gives; cut inside
// the header, by libwebp's reason.
TEST(ReadErrors, TruncatedWebp) {
  TempDir dir;
  for (const int quality : {0, 80}) {  // lossless, lossy
    WriteOptions options;
    options.webp_quality = quality;
    write_image(dir.file("whole.webp"), random_image(40, 30, 3, Depth::U8, 9), options);
    const Bytes webp = load(dir.file("whole.webp"));
    for (std::size_t cut : {std::size_t{40}, webp.size() / 2, webp.size() - 1}) {
      SCOPED_TRACE("quality " + std::to_string(quality) + ", cut at " + std::to_string(cut));
      save(dir.file("cut.webp"), Bytes(webp.begin(), webp.begin() + static_cast<std::ptrdiff_t>(cut)));
      EXPECT_EQ(read_error(dir.file("cut.webp")), dir.file("cut.webp") + ": truncated WebP (its RIFF header gives " +
                                                      std::to_string(webp.size()) + " bytes; the file has " +
                                                      std::to_string(cut) + ")");
    }
  }
}

// A JPEG's markers are walked once, by inspect_input, for its shape and
// its structure together; the verdict refuses the file there, before any
// decoding, and the walk travels to the decoder in the InputFile. Past the
// first 64 KiB read, the walk is of the whole file, not that first part.
TEST(ReadErrors, JpegMarkerWalkIsCheckedOnceBeforeDecoding) {
  TempDir dir;
  for (const int side : {16, 512}) {
    write_image(dir.file("whole.jpg"), random_image(side, side, 3, Depth::U8, 8));
    const Bytes jpg = load(dir.file("whole.jpg"));
    ASSERT_EQ(jpg.size() > (64u << 10), side == 512);
    const InputFile input = read_input(dir.file("whole.jpg"));
    ASSERT_TRUE(input.jpeg);
    EXPECT_EQ(input.jpeg->status, JpegLayout::Status::complete);
    EXPECT_EQ(input.jpeg->scans, 1u);
    ASSERT_TRUE(input.shape);
    EXPECT_EQ(input.shape->width, static_cast<std::uint64_t>(side));
    EXPECT_EQ(decode_input(input).width, side);
    EXPECT_EQ(error_of<InputError>([&] { inspect_input("cut.jpg", Bytes(jpg.begin(), jpg.end() - 1)); }),
              "cut.jpg: truncated JPEG (no end-of-image marker)");
  }
  write_image(dir.file("other.png"), random_image(16, 16, 3, Depth::U8, 8));
  EXPECT_FALSE(read_input(dir.file("other.png")).jpeg);
}

TEST(ReadErrors, JpegWithGarbageBetweenMarkers) {
  TempDir dir;
  write_image(dir.file("whole.jpg"), random_image(16, 16, 3, Depth::U8, 9));
  Bytes jpg = load(dir.file("whole.jpg"));
  const std::size_t second_marker = 4 + (std::size_t{jpg[4]} << 8 | jpg[5]);  // after SOI and the first segment
  jpg.insert(jpg.begin() + static_cast<std::ptrdiff_t>(second_marker), {0x00, 0x42});  // libjpeg would warn on stderr
  save(dir.file("junk.jpg"), jpg);
  EXPECT_EQ(read_error(dir.file("junk.jpg")), dir.file("junk.jpg") + ": corrupt JPEG (no marker where one must be, at byte " +
                                                   std::to_string(second_marker) + ")");
}

// A stray marker in a complete file's scan data is corruption, not a file
// cut short: a reserved one is named, and a segment whose length runs past
// the end of a file that still ends with its end-of-image marker is named too.
TEST(ReadErrors, JpegWithAStrayMarkerInItsScanIsCorruptNotTruncated) {
  TempDir dir;
  write_image(dir.file("whole.jpg"), random_image(64, 48, 3, Depth::U8, 8));
  const Bytes jpg = load(dir.file("whole.jpg"));
  const std::size_t scan = scan_data_at(jpg);
  ASSERT_LT(scan, jpg.size());
  std::size_t mid = (scan + jpg.size()) / 2;
  while (jpg[mid - 1] == 0xff) ++mid;  // not between an FF and its stuffed 00
  const auto with = [&](std::initializer_list<std::uint8_t> bytes) {
    Bytes b = jpg;
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(mid), bytes);
    save(dir.file("stray.jpg"), b);
    return read_error(dir.file("stray.jpg"));
  };
  const std::string at = " at byte " + std::to_string(mid);
  EXPECT_EQ(with({0xff, 0x12}), dir.file("stray.jpg") + ": corrupt JPEG (reserved marker FF12" + at + ")");
  EXPECT_EQ(with({0xff, 0xc4, 0xff, 0xf0}),
            dir.file("stray.jpg") + ": corrupt JPEG (a segment" + at + " runs past the end of the file)");
}

// Damage inside the entropy-coded data passes the marker walk, and libjpeg
// decodes around it with a warning, which it used to print on the terminal
// (OpenCV installs no handler). Now the warning refuses the file and
// nothing is printed (error_of checks stderr).
TEST(ReadErrors, JpegWithDamagedScanDataIsRefusedSilently) {
  TempDir dir;
  write_image(dir.file("whole.jpg"), random_image(64, 48, 3, Depth::U8, 8));
  const Bytes jpg = load(dir.file("whole.jpg"));
  const std::size_t scan = scan_data_at(jpg);
  ASSERT_LT(scan, jpg.size());
  const std::string prefix = dir.file("bad.jpg") + ": corrupt JPEG (libjpeg: Corrupt JPEG data: ";

  Bytes garbage = jpg;  // bytes between the last scan's data and EOI
  garbage.insert(garbage.end() - 2, 57, 0x42);
  save(dir.file("bad.jpg"), garbage);
  std::string message = read_error(dir.file("bad.jpg"));
  EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
  EXPECT_NE(message.find(" extraneous bytes before marker 0xd9)"), std::string::npos) << message;

  // Bytes flipped in the middle of the scan: some flips still decode to
  // valid (wrong) codes, which no decoder can tell; the others must be
  // refused, and at least one of these is.
  int refused = 0;
  for (std::size_t at = (scan + jpg.size()) / 2, tries = 0; tries < 8; ++tries, at += 7) {
    Bytes flipped = jpg;
    flipped[at] ^= 0x55;
    if (jpg[at] == 0xff || flipped[at] == 0xff || (at > 0 && jpg[at - 1] == 0xff)) continue;  // no new or broken markers
    SCOPED_TRACE("flipped byte " + std::to_string(at));
    save(dir.file("bad.jpg"), flipped);
    message = "(decoded)";
    testing::internal::CaptureStderr();
    try {
      read_image(dir.file("bad.jpg"));
    } catch (const InputError& e) {
      message = e.what();
    }
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    if (message == "(decoded)") continue;
    ++refused;
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
  }
  EXPECT_GT(refused, 0);
}

TEST(ReadErrors, JpegWithBadHuffmanTable) {
  TempDir dir;
  write_image(dir.file("whole.jpg"), random_image(16, 16, 3, Depth::U8, 9));
  Bytes jpg = load(dir.file("whole.jpg"));
  const std::size_t dht = find_segment(jpg, 0xc4);
  ASSERT_LT(dht + 21, jpg.size());
  std::fill(jpg.begin() + static_cast<std::ptrdiff_t>(dht + 5), jpg.begin() + static_cast<std::ptrdiff_t>(dht + 21), 0xff);  // 16 code counts summing to 4080
  save(dir.file("huff.jpg"), jpg);
  EXPECT_EQ(read_error(dir.file("huff.jpg")), dir.file("huff.jpg") + ": corrupt JPEG (libjpeg: Bogus Huffman table definition)");
}

// libjpeg-turbo as packaged decodes 8-bit JPEGs only. A real 12-bit file
// needs a 12-bit build to make; the frame header of one is enough, as the
// precision is refused before any scan data is read.
TEST(ReadErrors, TwelveBitJpegIsRefused) {
  TempDir dir;
  write_image(dir.file("whole.jpg"), random_image(16, 16, 1, Depth::U8, 10));
  Bytes jpg = load(dir.file("whole.jpg"));
  const std::size_t sof = find_segment(jpg, 0xc0);
  ASSERT_LT(sof + 4, jpg.size());
  jpg[sof + 1] = 0xc1;  // extended sequential, the process that allows 12 bits
  jpg[sof + 4] = 12;
  save(dir.file("12bit.jpg"), jpg);
  EXPECT_EQ(read_error(dir.file("12bit.jpg")), dir.file("12bit.jpg") + ": 12-bit JPEG is not supported (8-bit samples only)");
}

// A height of 0 in the frame header means a DNL marker sets it after the
// first scan; libjpeg does not support that.
TEST(ReadErrors, JpegWithHeightFromDnlIsRefused) {
  TempDir dir;
  write_image(dir.file("whole.jpg"), random_image(16, 16, 1, Depth::U8, 11));
  Bytes jpg = load(dir.file("whole.jpg"));
  const std::size_t sof = find_segment(jpg, 0xc0);
  ASSERT_LT(sof + 6, jpg.size());
  jpg[sof + 5] = jpg[sof + 6] = 0;
  save(dir.file("dnl.jpg"), jpg);
  EXPECT_EQ(read_error(dir.file("dnl.jpg")), dir.file("dnl.jpg") + ": unsupported JPEG (libjpeg: Empty JPEG image (DNL not supported))");
}

// max_pixels * 8 bytes (16-bit RGBA) + 64 MiB: no image within the
// pixel limit needs more, and no input is read past it. Once a header has
// given the size, 24 bytes a pixel + 64 MiB.
constexpr std::uint64_t kSlack = std::uint64_t{64} << 20;

// A classic TIFF whose first IFD lies at 128 KiB, past the 64 KiB read
// before the rest: nothing gives its size until all of it is read.
Bytes tiff_with_a_far_ifd() { return {'I', 'I', 42, 0, 0x00, 0x00, 0x02, 0x00}; }

#if GPUIMG_WITH_TIFF
const char* const kNoTiffSize = ": corrupt or truncated TIFF (no image size in its header)";
#else
const char* const kNoTiffSize = ": TIFF needs a build with libtiff";
#endif

// Sparse files: their size is metadata, no disk is used.
// An uncompressed 24-bit TGA's header: a format whose file holds one image.
Bytes tga_header(std::uint16_t width, std::uint16_t height) {
  Bytes b = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  put_le(b, width, 2);
  put_le(b, height, 2);
  b.push_back(24);
  b.push_back(0x20);
  return b;
}

TEST(ReadErrors, RegularFileLargerThanItsHeaderAllowsIsRefusedUnread) {
  TempDir dir;
  save(dir.file("big.tga"), tga_header(10, 10));
  fs::resize_file(dir.file("big.tga"), 10 * 10 * 24 + kSlack + 1);
  EXPECT_EQ(read_error(dir.file("big.tga"), ReadOptions{1000}),
            dir.file("big.tga") + ": file is 67111265 bytes, more than a 10x10 TGA can take (67111264 bytes)");
  // One byte less is read, and decoded: zeros follow the header.
  fs::resize_file(dir.file("big.tga"), 10 * 10 * 24 + kSlack);
  EXPECT_EQ(read_image(dir.file("big.tga"), ReadOptions{1000}).data, Bytes(10 * 10 * 3, 0));
}

TEST(ReadErrors, RegularFileLargerThanAnyImageIsRefusedFromItsSize) {
  TempDir dir;
  save(dir.file("big.tif"), tiff_with_a_far_ifd());
  fs::resize_file(dir.file("big.tif"), 1000 * 8 + kSlack + 1);
  EXPECT_EQ(read_error(dir.file("big.tif"), ReadOptions{1000}),
            dir.file("big.tif") + ": file is 67116865 bytes, more than any image within --max-pixels 1000 can take "
                                  "(67116864 bytes)");
  // One byte less is read; its IFD, all zeros, names no size.
  fs::resize_file(dir.file("big.tif"), 1000 * 8 + kSlack);
  EXPECT_EQ(read_error(dir.file("big.tif"), ReadOptions{1000}), dir.file("big.tif") + kNoTiffSize);

  // With the default limit: 2^28 pixels * 8 bytes + 64 MiB.
  fs::resize_file(dir.file("big.tif"), std::uint64_t{3} << 30);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_error(dir.file("big.tif")),
            dir.file("big.tif") + ": file is 3221225472 bytes, more than any image within --max-pixels 268435456 can "
                                  "take (2214592512 bytes)");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
}

// An endless stream (as /dev/zero is) of no known format is refused from
// its first bytes, not read up to any limit.
TEST(ReadErrors, EndlessStreamOfNoKnownFormatIsRefusedAtOnce) {
  TempDir dir;
  const test::FifoFeeder feeder(dir.file("pipe"), Bytes(1 << 16, 0), std::uint64_t{1} << 40);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(read_error(dir.file("pipe")), dir.file("pipe") + ": not a recognised image format");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
}

// One of a known format that holds one image is read no further than its
// header's size allows.
TEST(ReadErrors, EndlessStreamIsCutOffAtItsHeaderSize) {
  TempDir dir;
  const test::FifoFeeder feeder(dir.file("pipe"), tga_header(10, 10), Bytes(1 << 16, 0), std::uint64_t{1} << 40);
  EXPECT_EQ(read_error(dir.file("pipe")),
            dir.file("pipe") + ": input goes on past 67111264 bytes, more than a 10x10 TGA can take");
}

// And with no size in its first bytes, no further than any image within
// the limit could be.
TEST(ReadErrors, EndlessStreamWithNoSizeAtItsStartIsCutOffAtTheLimit) {
  TempDir dir;
  const test::FifoFeeder feeder(dir.file("pipe"), tiff_with_a_far_ifd(), Bytes(1 << 16, 0), std::uint64_t{1} << 40);
  EXPECT_EQ(read_error(dir.file("pipe"), ReadOptions{1000}),
            dir.file("pipe") + ": input goes on past 67116864 bytes, more than any image within --max-pixels 1000 can take");
}

TEST(ReadErrors, HugePngHeaderIsRefusedBeforeAllocating) {
  TempDir dir;
  save(dir.file("huge.png"), png_header(100000, 100000));
  const auto start = std::chrono::steady_clock::now();
  const std::string message = read_error(dir.file("huge.png"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(message, dir.file("huge.png") +
                         ": image is 100000x100000 (10000000000 pixels), over the limit of 268435456 set by --max-pixels");
  EXPECT_LT(seconds, 1.0);
}

TEST(ReadErrors, PngWiderThanLibpngsDefaultLimitStillReads) {
  TempDir dir;
  const Image wide = random_image(1000001, 1, 1, Depth::U8, 10);
  write_image(dir.file("wide.png"), wide);
  EXPECT_EQ(read_image(dir.file("wide.png")).data, wide.data);
}

// Each format's header is read for the size before decoding.
TEST(ReadErrors, MaxPixelsBelowARealImageInEveryFormat) {
  TempDir dir;
  const Image img = random_image(33, 17, 3, Depth::U8, 12);
  for (const std::string& ext : test::round_trip_extensions()) {
    SCOPED_TRACE(ext);
    const std::string path = dir.file("img." + ext);
    write_image(path, img);
    EXPECT_EQ(read_error(path, ReadOptions{560}),
              path + ": image is 33x17 (561 pixels), over the limit of 560 set by --max-pixels");
    EXPECT_NO_THROW(read_image(path, ReadOptions{561}));
  }
}

// GIF and TGA headers stating 60000x60000 with no pixel data behind them:
// stbi_info reads the size and nothing is allocated.
TEST(ReadErrors, HugeGifAndTgaHeadersAreRefused) {
  TempDir dir;
  const Bytes gif = {'G', 'I', 'F', '8', '9', 'a', 0x60, 0xea, 0x60, 0xea, 0, 0, 0};
  Bytes tga(18, 0);
  tga[2] = 2;  // uncompressed true colour
  tga[12] = tga[14] = 0x60;
  tga[13] = tga[15] = 0xea;
  tga[16] = 24;
  for (const auto& [name, bytes] : {std::pair{"huge.gif", gif}, std::pair{"huge.tga", tga}}) {
    save(dir.file(name), bytes);
    EXPECT_EQ(read_error(dir.file(name)),
              dir.file(name) + ": image is 60000x60000 (3600000000 pixels), over the limit of 268435456 set by --max-pixels");
  }
}

// libwebp is given only files whose header the probe read a size from.
TEST(ReadErrors, WebpWithNoSizeIsRefusedUnread) {
  TempDir dir;
  save(dir.file("a.webp"), {'R', 'I', 'F', 'F', 4, 0, 0, 0, 'W', 'E', 'B', 'P'});
  EXPECT_EQ(read_error(dir.file("a.webp")), dir.file("a.webp") + ": corrupt or truncated WebP (no image size in its header)");
}

#if GPUIMG_WITH_TIFF
// The same small TIFF, past OpenCV's limit and within ours, is refused
// before anything is allocated: its one strip of 4 bytes cannot hold
// 65536x65536 pixels.
TEST(ReadErrors, TinyTiffClaimingAHugeImageIsRefusedBeforeDecoding) {
  TempDir dir;
  save(dir.file("huge.tif"), gray_tiff({{256, 4, 65536}, {257, 4, 65536}}, 2, 2, Bytes(4)));
  // libtiff cuts one uncompressed strip into many: the first holds the 4 bytes.
  EXPECT_THAT(read_error(dir.file("huge.tif"), ReadOptions{std::uint64_t{1} << 40}),
              testing::StartsWith(dir.file("huge.tif") + ": truncated TIFF (strip 0 has 4 bytes; its "));
}
#else
TEST(ReadErrors, TiffNeedsLibtiff) {
  TempDir dir;
  save(dir.file("a.tif"), {'I', 'I', 42, 0, 8, 0, 0, 0, 0, 0});
  EXPECT_EQ(read_error(dir.file("a.tif")), dir.file("a.tif") + ": TIFF needs a build with libtiff");
}
#endif

TEST(OutputErrors, UnsupportedExtension) {
  TempDir dir;
  const std::string path = dir.file("out.xyz");
  const std::string expected = path + ": unsupported output format '.xyz' (supported: " + kWritable + ")";
  EXPECT_EQ(check_error(path), expected);
  EXPECT_EQ(write_error(path), expected);
  EXPECT_FALSE(fs::exists(path));
  // A slip of a written format's extension, in any case, is named.
  struct Slip {
    const char *ext, *as_read, *meant;
  };
  for (const Slip s : {Slip{"jgp", "jgp", "jpg"}, {"PGN", "pgn", "png"}, {"wepb", "wepb", "webp"}, {"tgs", "tgs", "tga"}}) {
    const std::string slip = dir.file(std::string("out.") + s.ext);
    EXPECT_EQ(check_error(slip), slip + ": unsupported output format '." + s.as_read + "'; did you mean " + s.meant +
                                     "? (supported: " + kWritable + ")");
    EXPECT_FALSE(fs::exists(slip));
  }
  // One letter from tif, but a format read, not a slip.
  EXPECT_EQ(check_error(dir.file("out.gif")), dir.file("out.gif") +
                                                  ": unsupported output format '.gif'; gpuimg reads gif files but does "
                                                  "not write them (supported: " + kWritable + ")");
}

TEST(OutputErrors, NoExtension) {
  TempDir dir;
  const std::string path = dir.file("out");
  // A word with no extension may have been meant as a folder.
  const std::string expected = path + ": no file extension to choose the output format from (supported: " + kWritable +
                               "); a folder to write into ends in '/': " + path + "/";
  EXPECT_EQ(check_error(path), expected);
  EXPECT_EQ(write_error(path), expected);
}

TEST(OutputErrors, DirectoryMissing) {
  TempDir dir;
  const std::string path = dir.file("missing/out.png");
  EXPECT_EQ(check_error(path), path + ": directory '" + dir.file("missing") + "' does not exist");
  EXPECT_EQ(write_error(path), path + ": cannot create a temporary file in '" + dir.file("missing") + "': no such file or directory");
}

TEST(OutputErrors, ParentIsARegularFile) {
  TempDir dir;
  save(dir.file("file"), {1});
  const std::string path = dir.file("file/out.png");
  EXPECT_EQ(check_error(path), path + ": '" + dir.file("file") + "' is not a directory");
  EXPECT_EQ(write_error(path), path + ": cannot create a temporary file in '" + dir.file("file") + "': not a directory");
}

TEST(OutputErrors, DirectoryNotWritable) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: access(W_OK) succeeds on any directory";
  TempDir dir;
  fs::create_directory(dir.file("ro"));
  fs::permissions(dir.file("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  const std::string path = dir.file("ro/out.png");
  EXPECT_EQ(check_error(path), path + ": directory '" + dir.file("ro") + "' is not writable");
  EXPECT_EQ(write_error(path), path + ": cannot create a temporary file in '" + dir.file("ro") + "': permission denied");
}

TEST(OutputErrors, OutputIsADirectory) {
  TempDir dir;
  fs::create_directory(dir.file("out.png"));
  std::ofstream(dir.file("out.png/keep")) << "x";
  EXPECT_EQ(check_error(dir.file("out.png")), dir.file("out.png") + ": is a directory");
  EXPECT_EQ(write_error(dir.file("out.png")), dir.file("out.png") + ": cannot replace: is a directory");
  EXPECT_TRUE(fs::exists(dir.file("out.png/keep")));
  EXPECT_EQ(dir.names(), std::vector<std::string>{"out.png"});  // no temporary left behind
}

// A write that fails half way (the file size limit stands in for a full
// disk) leaves the old file byte-identical and no temporary behind.
TEST(OutputErrors, FailedWriteKeepsTheExistingFile) {
  TempDir dir;
  const Bytes old = {'o', 'l', 'd', '\n'};
  save(dir.file("out.png"), old);
  const Image big = random_image(256, 256, 4, Depth::U8, 14);  // ~256 KiB of incompressible PNG

  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit small = saved;
  small.rlim_cur = 4096;
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // so write() fails with EFBIG instead
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string message = write_error(dir.file("out.png"), big);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);

  EXPECT_EQ(message, dir.file("out.png") + ": cannot write: file too large");
  EXPECT_EQ(load(dir.file("out.png")), old);
  EXPECT_EQ(dir.names(), std::vector<std::string>{"out.png"});
}

TEST(OutputErrors, InvalidImageOrQuality) {
  TempDir dir;
  const std::string path = dir.file("out.jpg");
  Image five(2, 2, 3, Depth::U8);
  five.channels = 5;
  EXPECT_EQ(write_error(path, five), path + ": cannot write an image with 5 channels");
  EXPECT_EQ(write_error(path, Image()), path + ": cannot write an image with 0 channels");
  EXPECT_EQ(error_of<OutputError>([&] { write_image(path, random_image(2, 2, 3, Depth::U8, 1), WriteOptions{0}); }),
            path + ": JPEG quality 0 is outside 1..100");
  WriteOptions level_ten;
  level_ten.png_level = 10;
  EXPECT_EQ(error_of<OutputError>([&] { write_image(dir.file("out.png"), random_image(2, 2, 3, Depth::U8, 1), level_ten); }),
            dir.file("out.png") + ": PNG level 10 is outside 0..9");
  EXPECT_TRUE(dir.names().empty());
}

}  // namespace
}  // namespace gpuimg
