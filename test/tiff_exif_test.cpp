// EXIF through TIFF: a block written as the TIFF's own tags and Exif and
// GPS IFDs, checked with libtiff itself and a walk of the file's bytes;
// the tags of a TIFF made byte by byte read back into a block, checked
// with libexif; what a TIFF cannot carry said under -v.
#if GPUIMG_WITH_TIFF
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tiffio.h>

#include <memory>
#include <string>
#include <vector>

#include "exif_tags.hpp"
#include "metadata.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

RunResult gpuimg(std::vector<std::string> args) {
  args.insert(args.end(), {"--device", "cpu"});
  return run_binary(args);
}

void write_png(const std::string& path, const Image& img, const Bytes& exif) {
  Metadata m;
  m.exif = exif;
  EXPECT_TRUE(write_image(path, img, WriteOptions{}, m).empty());
}

using TiffPtr = std::unique_ptr<TIFF, void (*)(TIFF*)>;

// The bytes of value `i` of a rational entry as numerator and denominator.
std::pair<std::uint32_t, std::uint32_t> rational_at(const TiffEntry2& e, unsigned i, bool big_endian) {
  const auto word = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b) v |= std::uint32_t{e.values.at(at + b)} << 8 * (big_endian ? 3 - b : b);
    return v;
  };
  return {word(8 * i), word(8 * i + 4)};
}

TEST(TiffExifOutput, LibtiffReadsTheTagsWithTheirValues) {
  for (const bool big_endian : {false, true}) {
    TempDir dir;
    // 16-bit samples too, which libtiff swaps into a big-endian file.
    const Image img = big_endian ? random_image(7, 5, 4, Depth::U16, 4) : random_image(7, 5, 3, Depth::U8, 4);
    write_png(dir.file("a.png"), img, libexif_block(camera_tags(), big_endian));
    const RunResult r = gpuimg({dir.file("a.png"), "-v", dir.file("b.tif")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("TIFF output carries"), std::string::npos) << r.err;
    EXPECT_EQ(read_image(dir.file("b.tif")).data, img.data);

    const Bytes file = load(dir.file("b.tif"));
    EXPECT_EQ(file[0], big_endian ? 'M' : 'I') << "the block's byte order";
    const TiffPtr tif(TIFFOpen(dir.file("b.tif").c_str(), "r"), TIFFClose);
    ASSERT_TRUE(tif);
    EXPECT_EQ(TIFFNumberOfDirectories(tif.get()), 1);
    const char* make = nullptr;
    ASSERT_TRUE(TIFFGetField(tif.get(), TIFFTAG_MAKE, &make));
    EXPECT_STREQ(make, "gpuimg-test");
    std::uint16_t orientation = 0;
    ASSERT_TRUE(TIFFGetField(tif.get(), TIFFTAG_ORIENTATION, &orientation));
    EXPECT_EQ(orientation, 1) << "the block holds one: so does the TIFF";
    std::uint64_t exif_at = 0, gps_at = 0;
    ASSERT_TRUE(TIFFGetField(tif.get(), TIFFTAG_EXIFIFD, &exif_at));
    ASSERT_TRUE(TIFFGetField(tif.get(), TIFFTAG_GPSIFD, &gps_at));

    ASSERT_TRUE(TIFFReadEXIFDirectory(tif.get(), exif_at));
    float exposure = 0;
    ASSERT_TRUE(TIFFGetField(tif.get(), EXIFTAG_EXPOSURETIME, &exposure));
    EXPECT_FLOAT_EQ(exposure, 1.0f / 250);
    std::uint16_t iso_count = 0;
    const std::uint16_t* iso = nullptr;
    ASSERT_TRUE(TIFFGetField(tif.get(), EXIFTAG_ISOSPEEDRATINGS, &iso_count, &iso));
    ASSERT_EQ(iso_count, 1);
    EXPECT_EQ(iso[0], 200);
    const char* taken = nullptr;
    ASSERT_TRUE(TIFFGetField(tif.get(), EXIFTAG_DATETIMEORIGINAL, &taken));
    EXPECT_STREQ(taken, "2026:11:26 07:59:58");
    std::uint16_t comment_size = 0;
    const std::uint8_t* comment = nullptr;
    ASSERT_TRUE(TIFFGetField(tif.get(), EXIFTAG_USERCOMMENT, &comment_size, &comment));
    EXPECT_EQ(std::string(comment, comment + comment_size), std::string("ASCII\0\0\0hello", 13));

    ASSERT_TRUE(TIFFReadGPSDirectory(tif.get(), gps_at));
    const double* latitude = nullptr;
    ASSERT_TRUE(TIFFGetField(tif.get(), GPSTAG_LATITUDE, &latitude));
    EXPECT_DOUBLE_EQ(latitude[2], 12.34);

    // The fractions as given, not libtiff's own of the float: 28/10, not 14/5.
    const auto exif = tiff_ifd(file, exif_at);
    ASSERT_EQ(exif.at(0x829a).type, 5);
    EXPECT_EQ(rational_at(exif.at(0x829a), 0, big_endian), std::make_pair(1u, 250u));
    EXPECT_EQ(rational_at(exif.at(0x829d), 0, big_endian), std::make_pair(28u, 10u));
    EXPECT_EQ(rational_at(exif.at(0x9204), 0, big_endian), std::make_pair(static_cast<std::uint32_t>(-2), 3u));
    EXPECT_EQ(rational_at(exif.at(0xa432), 3, big_endian), std::make_pair(28u, 10u));
    EXPECT_EQ(rational_at(tiff_ifd(file, gps_at).at(0x0002), 2, big_endian), std::make_pair(1234u, 100u));
  }
}

// A thumbnail, IFD0's resolution, tags libtiff has no field for (one of
// the Exif IFD, the Interoperability IFD's) and ISO as a LONG where
// libtiff's table says SHORT: all left out, and -v counts them.
TEST(TiffExifOutput, VerboseCountsWhatTheTiffCannotCarry) {
  TempDir dir;
  const std::vector<TagSpec> tags = {
      ascii(EXIF_IFD_0, 0x010f, "gpuimg-test"),
      {EXIF_IFD_0, 0x011a, EXIF_FORMAT_RATIONAL, 1, {72, 1}},
      {EXIF_IFD_EXIF, 0x8827, EXIF_FORMAT_LONG, 1, {200}},
      {EXIF_IFD_EXIF, 0xea1c, EXIF_FORMAT_UNDEFINED, 4, {}, "pad!"},
      ascii(EXIF_IFD_INTEROPERABILITY, 0x0001, "R98"),
  };
  write_png(dir.file("a.png"), random_image(3, 2, 1, Depth::U8, 5), libexif_block(tags, false, Bytes{0xff, 0xd8, 0xff, 0xd9}));
  const RunResult r = gpuimg({dir.file("a.png"), "-v", dir.file("b.tif")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(dir.file("b.tif") +
                       ": TIFF output carries EXIF's tags, not its block: left out the thumbnail, 1 tag of IFD0 other "
                       "than its text and Orientation, 2 tags libtiff does not know and 1 tag of another type or count than libtiff's\n"),
            std::string::npos)
      << r.err;
  // Nothing of the Exif IFD was taken: the TIFF has none, and gives back IFD0's Make.
  const auto ifd0 = tiff_ifd(load(dir.file("b.tif")), tiff_first_ifd(load(dir.file("b.tif"))));
  EXPECT_EQ(ifd0.count(34665), 0u);
  EXPECT_EQ(ifd0.count(282), 0u) << "XResolution is not the block's";
  ASSERT_EQ(gpuimg({dir.file("b.tif"), dir.file("c.png")}).status, 0);
  const Bytes back = png_items(load(dir.file("c.png"))).exif;
  EXPECT_EQ(exif_entry_of(back, EXIF_IFD_0, 0x010f).text(), "gpuimg-test");
  EXPECT_EQ(exif_entry_of(back, EXIF_IFD_EXIF, 0x8827).format, 0);
}

// libexif reads 65528 bytes of a block (JPEG's APP1 holds no more): the
// rest, which a PNG's eXIf may hold, cannot reach a TIFF's tags.
TEST(TiffExifOutput, VerboseSaysWhatLibexifDoesNotRead) {
  TempDir dir;
  Bytes big = exif_block(1);
  big.resize(70000, 7);
  write_png(dir.file("a.png"), random_image(3, 2, 3, Depth::U8, 6), big);
  const RunResult r = gpuimg({dir.file("a.png"), "-v", dir.file("b.tif")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(dir.file("b.tif") + ": TIFF output carries EXIF's tags, not its block: left out the block's 4472 "
                                           "bytes past the 65528 libexif reads\n"),
            std::string::npos)
      << r.err;
  ASSERT_EQ(gpuimg({dir.file("b.tif"), dir.file("c.png")}).status, 0);
  EXPECT_EQ(png_items(load(dir.file("c.png"))).exif, exif_block(1));
}

// A TIFF made byte by byte (no libtiff, no gpuimg): IFD0's Make and
// Orientation 6, an Exif IFD with an exposure, an ISO and a tag libtiff
// does not know. The block given to the PNG holds what libtiff knows, and
// Orientation 1 once the pixels are turned (6 where kept as stored).
TEST(TiffExifInput, ExifIfdOfAHandMadeTiffBecomesTheBlock) {
  TempDir dir;
  save(dir.file("a.tif"), tiff_with_exif_ifd({raw_ascii(0x010f, "crafted"), raw_short(0x0112, 6)},
                                             {raw_rational(0x829a, 10, 2500), raw_short(0x8827, 400),
                                              RawTag{0xbeef, 7, 4, {1, 2, 3, 4}}}));
  const RunResult r = gpuimg({dir.file("a.tif"), "-v", dir.file("b.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("orientation 6: turned 90 degrees clockwise"), std::string::npos) << r.err;
  const Bytes exif = png_items(load(dir.file("b.png"))).exif;
  ASSERT_FALSE(exif.empty());
  EXPECT_EQ(exif_entry_of(exif, EXIF_IFD_0, 0x010f).text(), "crafted");
  EXPECT_EQ(exif_entry_of(exif, EXIF_IFD_0, 0x0112).u16(0), 1);
  const ReadEntry exposure = exif_entry_of(exif, EXIF_IFD_EXIF, 0x829a);
  ASSERT_EQ(exposure.format, EXIF_FORMAT_RATIONAL);
  EXPECT_EQ(exposure.u32(0), 10u) << "as stored, not reduced";
  EXPECT_EQ(exposure.u32(1), 2500u);
  EXPECT_EQ(exif_entry_of(exif, EXIF_IFD_EXIF, 0x8827).u16(0), 400);
  EXPECT_EQ(exif_entry_of(exif, EXIF_IFD_EXIF, 0xbeef).format, 0);

  ASSERT_EQ(gpuimg({dir.file("a.tif"), "--no-auto-orient", dir.file("c.png")}).status, 0);
  EXPECT_EQ(exif_entry_of(png_items(load(dir.file("c.png"))).exif, EXIF_IFD_0, 0x0112).u16(0), 6);
}

// Exif IFDs libtiff must read without going past the file: one past its
// end, one that is IFD0 again (a loop), one in the pixels' bytes, one whose
// entries are of no TIFF type or claim 2^31 rationals. No crash (the
// sanitizer build runs this too), the image written, IFD0's Make kept; an
// IFD libtiff cannot read is left out with the usual warning.
TEST(HostileMetadata, TiffExifIfdPastItsEndLoopingOrMistypedIsSurvived) {
  constexpr std::int64_t kPixelsAt = 8 + (2 + 12 * 11 + 4) + (2 + 12 + 4);  // past IFD0's 11 entries and the Exif IFD's one
  TempDir dir;
  const std::vector<RawTag> make = {raw_ascii(0x010f, "hostile")};
  const std::vector<RawTag> exif = {raw_rational(0x829a, 1, 250)};
  const std::vector<RawTag> garbage = {RawTag{0x829a, 99, 1, {1, 2, 3, 4}}, RawTag{0x829d, 5, 0x7fffffff, {0xff, 0xff, 0xff, 0x7f}}};
  const std::vector<Bytes> files = {tiff_with_exif_ifd(make, exif, 100000), tiff_with_exif_ifd(make, exif, 8),
                                    tiff_with_exif_ifd(make, exif, kPixelsAt),
                                    tiff_with_exif_ifd(make, garbage)};
  for (const Bytes& file : files) {
    save(dir.file("in.tif"), file);
    const RunResult r = gpuimg({dir.file("in.tif"), dir.file("out.png")});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_THAT(r.err, testing::MatchesRegex("(gpuimg: warning: [^\n]*: ignored the Exif IFD of a TIFF \\([^\n]*\\) "
                                             "\\(-q: no warnings\\)\n)?"));
    const Bytes block = png_items(load(dir.file("out.png"))).exif;
    EXPECT_EQ(exif_entry_of(block, EXIF_IFD_0, 0x010f).text(), "hostile");
  }
  save(dir.file("in.tif"), files[0]);
  EXPECT_NE(gpuimg({dir.file("in.tif"), dir.file("out.png")}).err.find("ignored the Exif IFD of a TIFF (libtiff: "),
            std::string::npos);
}

}  // namespace
}  // namespace gpuimg::test
#endif
