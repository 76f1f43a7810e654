// ICC profiles, EXIF and XMP kept from input to output, EXIF orientation
// applied on load, --strip and --no-auto-orient; each written file's chunks
// or segments read back by the test's own walks (metadata_files.hpp).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "exif_tags.hpp"
#include "metadata.hpp"
#include "metadata_files.hpp"
#include "planned_read.hpp"
#include "run_binary.hpp"
#if GPUIMG_WITH_TIFF
#include "tiff_files.hpp"
#endif

namespace gpuimg::test {
namespace {

Metadata metadata_of(Bytes icc, Bytes exif, const std::string& xmp) {
  Metadata m;
  m.icc = std::move(icc);
  m.exif = std::move(exif);
  m.xmp.assign(xmp.begin(), xmp.end());
  return m;
}

void write_with(const std::string& path, const Image& img, const Metadata& m) {
  EXPECT_TRUE(write_image(path, img, WriteOptions{}, m).empty());
}

RunResult gpuimg(std::vector<std::string> args) {
  args.insert(args.end(), {"--device", "cpu"});
  return run_binary(args);
}

// The image as EXIF `orientation` says it is meant to be seen, by the
// standard's table: display pixel (X, Y) is stored pixel (x, y).
Image upright_reference(const Image& in, int orientation) {
  const bool swapped = orientation >= 5;
  const int w = in.width, h = in.height;
  Image out(swapped ? h : w, swapped ? w : h, in.channels, in.depth);
  const std::size_t px = static_cast<std::size_t>(in.channels) * bytes_per_sample(in.depth);
  for (int Y = 0; Y < out.height; ++Y)
    for (int X = 0; X < out.width; ++X) {
      int x = X, y = Y;
      switch (orientation) {
        case 2: x = w - 1 - X; break;
        case 3: x = w - 1 - X; y = h - 1 - Y; break;
        case 4: y = h - 1 - Y; break;
        case 5: x = Y; y = X; break;
        case 6: x = Y; y = h - 1 - X; break;
        case 7: x = w - 1 - Y; y = h - 1 - X; break;
        case 8: x = w - 1 - Y; y = X; break;
        default: break;
      }
      std::memcpy(out.data.data() + (static_cast<std::size_t>(Y) * out.width + X) * px,
                  in.data.data() + (static_cast<std::size_t>(y) * w + x) * px, px);
    }
  return out;
}

TEST(MetadataRoundTrip, IccExifAndXmpSurvivePngToJpegToPngByteForByte) {
  TempDir dir;
  // Over 64 KiB: JPEG carries it in three APP2 chunks.
  const Metadata m = metadata_of(icc_profile(150000), exif_block(1, true), xmp_packet());
  write_with(dir.file("a.png"), random_image(7, 5, 3, Depth::U8, 3), m);
  ASSERT_EQ(gpuimg({dir.file("a.png"), dir.file("b.jpg")}).status, 0);
  ASSERT_EQ(gpuimg({dir.file("b.jpg"), dir.file("c.png")}).status, 0);

  const FileItems jpg = jpeg_items(load(dir.file("b.jpg")));
  EXPECT_EQ(jpg.icc, m.icc);
  EXPECT_EQ(jpg.exif, m.exif);
  EXPECT_EQ(jpg.xmp, xmp_packet());
  EXPECT_EQ(jpg.kinds, (std::vector<std::string>{"APP0", "APP1", "APP1", "APP2", "APP2", "APP2"}));
  const FileItems png = png_items(load(dir.file("c.png")));
  EXPECT_EQ(png.icc, m.icc);
  EXPECT_EQ(png.exif, m.exif);
  EXPECT_EQ(png.xmp, xmp_packet());
  // iCCP before the pixels, as PNG requires.
  EXPECT_EQ(std::vector<std::string>(png.kinds.begin(), png.kinds.begin() + 5),
            (std::vector<std::string>{"IHDR", "iCCP", "eXIf", "iTXt", "IDAT"}));
}

TEST(MetadataRoundTrip, JpegIccChunksAreJoinedByTheirNumbersNotTheirOrder) {
  TempDir dir;
  const Bytes icc = icc_profile(140000, "GRAY");
  write_with(dir.file("a.jpg"), random_image(4, 4, 1, Depth::U8, 5), metadata_of(icc, {}, ""));
  Bytes jpg = load(dir.file("a.jpg"));
  // Swap the first two APP2 chunks (each 65533 bytes of contents: the same length).
  const std::size_t first = find_segment(jpg, 0xe2), seg = 2 + 65535;
  std::swap_ranges(jpg.begin() + first, jpg.begin() + first + seg, jpg.begin() + first + seg);
  save(dir.file("b.jpg"), jpg);
  const RunResult r = gpuimg({dir.file("b.jpg"), dir.file("c.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(png_items(load(dir.file("c.png"))).icc, icc);
}

// Orientation 1 to 8 at every depth and channel count, on sizes off any
// grid and of one row or column.
class AutoOrient : public testing::TestWithParam<std::tuple<int, Depth, int>> {};

TEST_P(AutoOrient, TurnsThePixelsUprightAndSetsTheTagToOne) {
  const auto [orientation, depth, channels] = GetParam();
  TempDir dir;
  for (const auto& [w, h] : std::vector<std::pair<int, int>>{{5, 3}, {1, 1}, {1, 6}, {6, 1}, {17, 9}}) {
    const Image stored = random_image(w, h, channels, depth, static_cast<std::uint32_t>(orientation * 100 + w));
    const std::string path = dir.file("in.png");
    write_with(path, stored, metadata_of({}, exif_block(orientation, orientation % 2 == 0), ""));

    const UprightImage read = read_planned(path, {}, ReadOptions{});
    EXPECT_EQ(read.image.data, upright_reference(stored, orientation).data) << w << "x" << h;
    EXPECT_EQ(read.image.width, orientation >= 5 ? h : w);
    EXPECT_EQ(exif_orientation_of(read.metadata.exif), 1);
    EXPECT_EQ(read.metadata.exif, exif_block(1, orientation % 2 == 0)) << "the tag set in place, nothing else";
    EXPECT_EQ(read.turned, orientation);

    ReadOptions as_stored;
    as_stored.auto_orient = false;
    const UprightImage kept = read_planned(path, {}, as_stored);
    EXPECT_EQ(kept.image.data, stored.data);
    EXPECT_EQ(kept.metadata.exif, exif_block(orientation, orientation % 2 == 0));
  }
}

// A block past libexif's 64 KiB (it reads no further) keeps its every byte
// but the tag's two: it is not saved again by libexif. So does the APP1
// header some writers put before a PNG's block lose only itself.
TEST(AutoOrientInPlace, ABlockPastWhatLibexifReadsKeepsEveryOtherByte) {
  TempDir dir;
  Bytes tail(70000);
  for (std::size_t i = 0; i < tail.size(); ++i) tail[i] = static_cast<std::uint8_t>(i * 7);
  Bytes big = exif_block(6), expected = exif_block(1);
  big.insert(big.end(), tail.begin(), tail.end());
  expected.insert(expected.end(), tail.begin(), tail.end());
  write_with(dir.file("big.png"), random_image(4, 3, 3, Depth::U8, 9), metadata_of({}, big, ""));
  const UprightImage read = read_planned(dir.file("big.png"), {}, ReadOptions{});
  EXPECT_EQ(read.turned, 6);
  EXPECT_EQ(read.metadata.exif, expected);

  Bytes headed = {'E', 'x', 'i', 'f', 0, 0};
  const Bytes block = exif_block(3, true);
  headed.insert(headed.end(), block.begin(), block.end());
  write_with(dir.file("headed.png"), random_image(4, 3, 3, Depth::U8, 9), metadata_of({}, headed, ""));
  const UprightImage headed_read = read_planned(dir.file("headed.png"), {}, ReadOptions{});
  EXPECT_EQ(headed_read.turned, 3);
  EXPECT_EQ(headed_read.metadata.exif, exif_block(1, true));
}

// EXIF's Orientation is a SHORT; a LONG one (some writers') is applied too,
// and set to 1 as a LONG.
TEST(AutoOrientInPlace, AnOrientationOfTypeLongIsAppliedAndSetToOne) {
  TempDir dir;
  for (bool big_endian : {false, true}) {
    const Image stored = random_image(5, 3, 3, Depth::U8, 12);
    write_with(dir.file("long.png"), stored, metadata_of({}, exif_block(6, big_endian, true), ""));
    const UprightImage read = read_planned(dir.file("long.png"), {}, ReadOptions{});
    EXPECT_EQ(read.turned, 6);
    EXPECT_EQ(read.image.data, upright_reference(stored, 6).data);
    EXPECT_EQ(read.metadata.exif, exif_block(1, big_endian, true)) << "the tag set in place, nothing else";
  }
}

INSTANTIATE_TEST_SUITE_P(Orientations, AutoOrient,
                         testing::Combine(testing::Range(1, 9), testing::Values(Depth::U8, Depth::U16),
                                          testing::Range(1, 5)));

TEST(AutoOrientCli, JpegTurnedAsItsTagSaysAndWrittenWithTagOne) {
  TempDir dir;
  const Bytes exif = exif_block(6);
  write_with(dir.file("a.jpg"), random_image(9, 4, 3, Depth::U8, 8), metadata_of({}, exif, ""));
  const RunResult kept = gpuimg({dir.file("a.jpg"), "--no-auto-orient", dir.file("stored.png")});
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_EQ(png_items(load(dir.file("stored.png"))).exif, exif);

  const RunResult turned = gpuimg({dir.file("a.jpg"), "-v", "--invert", dir.file("upright.png")});
  ASSERT_EQ(turned.status, 0) << turned.err;
  EXPECT_NE(turned.err.find("gpuimg: " + dir.file("a.jpg") + ": orientation 6: turned 90 degrees clockwise"),
            std::string::npos)
      << turned.err;
  EXPECT_EQ(exif_orientation_of(png_items(load(dir.file("upright.png"))).exif), 1);
  // stored.png keeps Orientation 6 too: read as stored, as the oracle's input.
  ASSERT_EQ(
      gpuimg({dir.file("stored.png"), "--no-auto-orient", "--rotate", "90", "--invert", dir.file("expected.png")}).status, 0);
  EXPECT_EQ(read_image(dir.file("upright.png")).data, read_image(dir.file("expected.png")).data);
}

#if GPUIMG_WITH_TIFF
// TIFF input: the ICC profile and XMP packet go on to a PNG, and the
// Orientation tag turns the pixels, as EXIF's does.
TEST(TiffInput, IccAndXmpAreKeptAndOrientationApplied) {
  TempDir dir;
  const Image stored = random_image(5, 3, 3, Depth::U16, 12);
  TiffSpec spec;
  spec.width = 5;
  spec.height = 3;
  spec.bits = 16;
  spec.samples = 3;
  spec.photometric = PHOTOMETRIC_RGB;
  spec.orientation = 8;
  spec.icc = icc_profile(900);
  spec.xmp = xmp_packet("tiff");
  save(dir.file("a.tif"), tiff_bytes(spec, tiff_planes(stored, false)));
  const RunResult r = gpuimg({dir.file("a.tif"), "-v", dir.file("b.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("orientation 8: turned 90 degrees counter-clockwise"), std::string::npos) << r.err;
  const FileItems png = png_items(load(dir.file("b.png")));
  EXPECT_EQ(png.icc, spec.icc);
  EXPECT_EQ(png.xmp, spec.xmp);
  EXPECT_EQ(read_image(dir.file("b.png")).data, upright_reference(stored, 8).data);

  // Kept as stored, its tag has no EXIF block to go in: -v says so.
  const RunResult kept = gpuimg({dir.file("a.tif"), "-v", "--no-auto-orient", dir.file("c.png")});
  ASSERT_EQ(kept.status, 0) << kept.err;
  EXPECT_NE(kept.err.find(dir.file("c.png") +
                          ": the orientation 8 of the pixels as stored has no EXIF block to go in; written without it"),
            std::string::npos)
      << kept.err;
  EXPECT_EQ(read_image(dir.file("c.png")).data, stored.data);
}
#endif

#if GPUIMG_WITH_TIFF
// TIFF output holds the ICC profile and XMP packet (tags 34675 and 700) as
// given, and EXIF as tags and IFDs of its own, made into a block again on
// reading: a block libexif saved, its entries in tag order, comes back
// byte for byte, in either byte order; so does the hand-made one of the
// other tests, which holds no more than IFD0's Make and Orientation.
TEST(MetadataRoundTrip, IccExifAndXmpSurvivePngToJpegToTiffToPngByteForByte) {
  for (const Bytes& exif : {libexif_block(camera_tags(), false), libexif_block(camera_tags(), true), exif_block(1)}) {
    TempDir dir;
    const Metadata m = metadata_of(icc_profile(150000), exif, xmp_packet());
    write_with(dir.file("a.png"), random_image(7, 5, 3, Depth::U8, 3), m);
    ASSERT_EQ(gpuimg({dir.file("a.png"), dir.file("b.jpg")}).status, 0);
    const RunResult tiff = gpuimg({dir.file("b.jpg"), "-v", dir.file("c.tif")});
    ASSERT_EQ(tiff.status, 0) << tiff.err;
    EXPECT_EQ(tiff.err.find("TIFF output carries"), std::string::npos) << "nothing left out: " << tiff.err;
    ASSERT_EQ(gpuimg({dir.file("c.tif"), dir.file("d.png")}).status, 0);

    const FileItems tif = tiff_items(load(dir.file("c.tif")));
    EXPECT_EQ(tif.icc, m.icc);
    EXPECT_EQ(tif.xmp, xmp_packet());
    const FileItems png = png_items(load(dir.file("d.png")));
    EXPECT_EQ(png.icc, m.icc);
    EXPECT_EQ(png.xmp, xmp_packet());
    EXPECT_EQ(png.exif, exif);
  }
}

// Pixels kept as stored keep their orientation in the TIFF's own tag.
TEST(TiffOutput, NoAutoOrientWritesTheOrientationTag) {
  TempDir dir;
  const Image stored = random_image(5, 3, 1, Depth::U16, 9);
  write_with(dir.file("a.png"), stored, metadata_of({}, exif_block(6), ""));
  ASSERT_EQ(gpuimg({dir.file("a.png"), "--no-auto-orient", dir.file("b.tif")}).status, 0);
  ASSERT_EQ(gpuimg({dir.file("b.tif"), dir.file("c.png")}).status, 0);
  EXPECT_EQ(read_image(dir.file("c.png")).data, upright_reference(stored, 6).data);
}
#endif

TEST(MetadataRoundTrip, IccExifAndXmpSurvivePngToWebpToPngByteForByte) {
  TempDir dir;
  const Metadata m = metadata_of(icc_profile(150001), exif_block(1, true), xmp_packet());
  write_with(dir.file("a.png"), random_image(7, 5, 3, Depth::U8, 3), m);
  const RunResult webp = gpuimg({dir.file("a.png"), "-v", dir.file("b.webp")});
  ASSERT_EQ(webp.status, 0) << webp.err;
  EXPECT_EQ(webp.err.find("written without"), std::string::npos) << webp.err;
  ASSERT_EQ(gpuimg({dir.file("b.webp"), dir.file("c.png")}).status, 0);

  const FileItems chunks = webp_items(load(dir.file("b.webp")));
  EXPECT_EQ(chunks.icc, m.icc);
  EXPECT_EQ(chunks.exif, m.exif);
  EXPECT_EQ(chunks.xmp, xmp_packet());
  EXPECT_EQ(chunks.kinds, (std::vector<std::string>{"VP8X", "ICCP", "VP8L", "EXIF", "XMP "}));
  const FileItems png = png_items(load(dir.file("c.png")));
  EXPECT_EQ(png.icc, m.icc);
  EXPECT_EQ(png.exif, m.exif);
  EXPECT_EQ(png.xmp, xmp_packet());
  EXPECT_EQ(read_image(dir.file("c.png")).data, read_image(dir.file("a.png")).data);
}

// A WebP's EXIF orientation is applied on load, as a JPEG's is.
TEST(WebpInput, ExifOrientationApplied) {
  TempDir dir;
  const Image stored = random_image(6, 4, 3, Depth::U8, 11);
  write_with(dir.file("a.webp"), stored, metadata_of({}, exif_block(5), ""));
  ASSERT_EQ(gpuimg({dir.file("a.webp"), dir.file("b.png")}).status, 0);
  EXPECT_EQ(read_image(dir.file("b.png")).data, upright_reference(stored, 5).data);
  EXPECT_EQ(exif_orientation_of(png_items(load(dir.file("b.png"))).exif), 1);
}

TEST(Strip, LeavesNoIccExifOrXmp) {
  TempDir dir;
  write_with(dir.file("a.png"), random_image(6, 5, 4, Depth::U16, 2),
             metadata_of(icc_profile(3000), exif_block(3), xmp_packet()));
  for (const std::string out : {"b.png", "b.jpg", "b.webp"}) {
    const RunResult r = gpuimg({dir.file("a.png"), "--strip", "-v", dir.file(out)});
    ASSERT_EQ(r.status, 0) << r.err;
    const Bytes written = load(dir.file(out));
    const FileItems items = out == "b.png" ? png_items(written) : out == "b.jpg" ? jpeg_items(written) : webp_items(written);
    EXPECT_TRUE(items.icc.empty() && items.exif.empty() && items.xmp.empty()) << out;
    for (const std::string& kind : items.kinds) EXPECT_TRUE(kind != "iCCP" && kind != "APP1" && kind != "APP2" && kind != "VP8X") << kind;
    EXPECT_EQ(r.err.find("written without"), std::string::npos) << r.err;
  }
  // Still turned by its orientation (3: 180 degrees), which --strip does not undo.
  const Image stored = read_image(dir.file("a.png"));
  EXPECT_EQ(read_image(dir.file("b.png")).data, upright_reference(stored, 3).data);
}

TEST(Verbose, FormatThatHoldsNoMetadataSaysSo) {
  TempDir dir;
  write_with(dir.file("a.png"), random_image(4, 3, 3, Depth::U8, 4),
             metadata_of(icc_profile(500), exif_block(1), xmp_packet()));
  const RunResult r = gpuimg({dir.file("a.png"), "-v", dir.file("b.tga")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("gpuimg: " + dir.file("b.tga") + ": TGA holds no ICC profile, EXIF or XMP; written without them\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(gpuimg({dir.file("a.png"), dir.file("c.tga")}).err, "");  // said under -v only
}

TEST(Verbose, ProfileForAnotherColourSpaceIsLeftOut) {
  TempDir dir;
  write_with(dir.file("a.png"), random_image(4, 3, 3, Depth::U8, 4), metadata_of(icc_profile(500), {}, ""));
  const RunResult r = gpuimg({dir.file("a.png"), "--grayscale", "-v", dir.file("b.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(": the ICC profile is for RGB, the image written is gray; written without it\n"), std::string::npos)
      << r.err;
  EXPECT_TRUE(png_items(load(dir.file("b.png"))).icc.empty());
}

TEST(Batch, KeepsMetadataAndStripsIt) {
  TempDir dir;
  fs::create_directory(dir / "in");
  const Metadata m = metadata_of(icc_profile(700), exif_block(1), xmp_packet());
  write_with(dir.file("in/a.png"), random_image(3, 3, 3, Depth::U8, 6), m);
  write_with(dir.file("in/b.jpg"), random_image(3, 3, 3, Depth::U8, 7), m);
  ASSERT_EQ(gpuimg({dir.file("in"), dir.file("kept/"), "--jobs", "2"}).status, 0);
  EXPECT_EQ(png_items(load(dir.file("kept/a.png"))).icc, m.icc);
  EXPECT_EQ(jpeg_items(load(dir.file("kept/b.jpg"))).exif, m.exif);
  const RunResult stripped = gpuimg({dir.file("in"), dir.file("stripped/"), "--strip", "-v", "--format", "tga"});
  ASSERT_EQ(stripped.status, 0) << stripped.err;
  EXPECT_EQ(stripped.err.find("written without"), std::string::npos) << stripped.err;
  const RunResult dropped = gpuimg({dir.file("in"), dir.file("tga/"), "-v", "--format", "tga"});
  EXPECT_NE(dropped.err.find(".tga (TGA holds no ICC profile, EXIF or XMP; written without them)"), std::string::npos)
      << dropped.err;
}

}  // namespace
}  // namespace gpuimg::test
