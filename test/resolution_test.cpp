// The resolution (PNG pHYs, JPEG JFIF density, TIFF XResolution,
// YResolution and ResolutionUnit) kept from input to output, turned with
// the pixels, kept by --strip and named where a format holds none; each
// written file's fields read back by the test's own walks of its bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metadata.hpp"
#include "crafted_files.hpp"
#include "exif_tags.hpp"
#include "metadata_files.hpp"
#include "resolution.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

using Unit = Resolution::Unit;

// What a file states, in its own numbers: unit 0 where there is no length
// (PNG, JFIF and TIFF number their units differently: the test's walks
// give PNG's 1 (metre), JFIF's 1 (inch) and 2 (cm), and TIFF's 1 (none),
// 2 (inch) and 3 (cm) as stored). `found` false where the file has none.
struct Stated {
  bool found = false;
  int unit = 0;
  double x = 0, y = 0;
};

Stated png_phys(const Bytes& png) {
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::size_t len = be32(png, at);
    if (std::string(png.begin() + at + 4, png.begin() + at + 8) == "pHYs" && len == 9)
      return {true, png[at + 16], double(be32(png, at + 8)), double(be32(png, at + 12))};
    at += 12 + len;
  }
  return {};
}

Stated jfif_density_of(const Bytes& jpg) {
  for (std::size_t at = 2; at + 4 <= jpg.size() && jpg[at] == 0xff && jpg[at + 1] != 0xda;) {
    const std::size_t len = std::size_t{jpg[at + 2]} << 8 | jpg[at + 3];
    const std::uint8_t* seg = jpg.data() + at + 4;
    if (jpg[at + 1] == 0xe0 && len >= 16 && std::memcmp(seg, "JFIF\0", 5) == 0)
      return {true, seg[7], double(seg[8] << 8 | seg[9]), double(seg[10] << 8 | seg[11])};
    at += 2 + len;
  }
  return {};
}

// A little-endian classic TIFF's IFD0 tags 282, 283 (RATIONAL) and 296.
Stated tiff_resolution(const Bytes& tif) {
  const auto get = [&](std::size_t at, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint32_t{tif[at + i]} << 8 * i;
    return v;
  };
  Stated s;
  s.unit = 2;  // TIFF's default, the inch
  const std::size_t ifd = get(4, 4);
  for (std::size_t i = 0, n = get(ifd, 2); i < n; ++i) {
    const std::size_t e = ifd + 2 + 12 * i;
    const std::uint32_t tag = get(e, 2);
    const auto rational = [&] { return double(get(get(e + 8, 4), 4)) / get(get(e + 8, 4) + 4, 4); };
    if (tag == 282) s.x = rational();
    if (tag == 283) s.y = rational();
    if (tag == 296) s.unit = static_cast<int>(get(e + 8, 2));
  }
  s.found = s.x > 0 && s.y > 0;
  return s;
}

// A 1x1 gray TIFF, as another program would write one, stating XResolution
// x/1 and YResolution y/1, and ResolutionUnit `unit` where it is not 0.
Bytes tiff_stating(std::uint32_t x, std::uint32_t y, std::uint32_t unit) {
  std::vector<TiffEntry> e = {{256, 3, 1}, {257, 3, 1}, {258, 3, 8}, {259, 3, 1}, {262, 3, 1}, {273, 4, 0},
                              {277, 3, 1}, {278, 4, 1}, {279, 4, 1}, {282, 5, 0}, {283, 5, 0}};
  if (unit != 0) e.push_back({296, 3, unit});
  const std::uint32_t data = tiff_data_offset(e.size());
  e[5].value = data;
  e[9].value = data + 1;
  e[10].value = data + 9;
  Bytes tail = {0x80};
  for (const std::uint32_t v : {x, 1u, y, 1u}) put_le(tail, v, 4);
  return tiff_file(e, tail);
}

// A BMP's pixels per metre, bytes 38 and 42.
std::pair<std::uint32_t, std::uint32_t> bmp_ppm(const Bytes& bmp) {
  const auto le = [&](std::size_t at) {
    return std::uint32_t{bmp[at]} | std::uint32_t{bmp[at + 1]} << 8 | std::uint32_t{bmp[at + 2]} << 16 |
           std::uint32_t{bmp[at + 3]} << 24;
  };
  return {le(38), le(42)};
}

RunResult gpuimg(std::vector<std::string> args) {
  args.insert(args.end(), {"--device", "cpu"});
  return run_binary(args);
}

void write_at(const std::string& path, const Image& img, Resolution r, const Bytes& exif = {}) {
  Metadata m;
  m.resolution = r;
  m.exif = exif;
  ASSERT_TRUE(write_image(path, img, WriteOptions{}, m).empty());
}

TEST(ResolutionNumbers, InchesRoundTripThroughPngsMetres) {
  // Every whole dpi a JFIF holds comes back from PNG's pixels per metre.
  for (std::uint32_t dpi = 1; dpi <= 65535; ++dpi) {
    const StoredDensity png = png_density({Unit::inch, double(dpi), double(dpi)});
    const StoredDensity jfif = jfif_density(png_resolution(png));
    ASSERT_EQ(jfif.unit, 1);
    ASSERT_EQ(jfif.x, dpi) << png.x;
  }
  EXPECT_EQ(png_density({Unit::inch, 300, 72}).x, 11811u);
  EXPECT_EQ(png_density({Unit::inch, 300, 72}).y, 2835u);
  EXPECT_EQ(png_density({Unit::centimetre, 118.11, 1}).x, 11811u);
  // Read back as the whole dpi that gives them, where one does.
  EXPECT_EQ(png_resolution({1, 11811, 2835}).x, 300);
  EXPECT_EQ(png_resolution({1, 11811, 2835}).y, 72);
  EXPECT_NEAR(png_resolution({1, 11800, 1}).x, 299.72, 1e-9);  // 118 per cm is no whole dpi
}

TEST(ResolutionNumbers, AnAspectKeepsItsRatio) {
  const StoredDensity a = jfif_density({Unit::aspect, 1.5, 1});
  EXPECT_TRUE(a.unit == 0 && a.x == 1500 && a.y == 1000);
  const StoredDensity b = jfif_density({Unit::aspect, 100000, 50000});
  EXPECT_TRUE(b.x == 2000 && b.y == 1000);
  const StoredDensity c = png_density({Unit::aspect, 0.4, 0.2});
  EXPECT_TRUE(c.x == 2000 && c.y == 1000);
  EXPECT_TRUE(png_density({Unit::aspect, 3, 2}).x == 3 && png_density({Unit::aspect, 3, 2}).y == 2);
  EXPECT_FALSE(png_density({Unit::aspect, 7, 7}).says_something());
  // Past the field: the larger term its most, the nearest ratio it holds.
  const StoredDensity d = jfif_density({Unit::aspect, 70000, 1});
  EXPECT_TRUE(d.x == 65535 && d.y == 1) << d.x << ":" << d.y;
}

TEST(ResolutionNumbers, WholeNumbersAreRoundedHalfUpAndHeldToTheirField) {
  const StoredDensity j = jfif_density({Unit::centimetre, 0.2, 70000});
  EXPECT_EQ(j.unit, 2);
  EXPECT_EQ(j.x, 1u);
  EXPECT_EQ(j.y, 65535u);
  EXPECT_EQ(jfif_density({Unit::inch, 71.5, 72.49}).x, 72u);
  EXPECT_EQ(jfif_density({Unit::inch, 71.5, 72.49}).y, 72u);
  // An aspect past the field: its larger term the field's most.
  const StoredDensity p = png_density({Unit::aspect, 2, 1e12});
  EXPECT_EQ(p.unit, 0);
  EXPECT_EQ(p.x, 1u);
  EXPECT_EQ(p.y, 0x7fffffffu);
}

TEST(Resolution, PngToJpegToTiffToPngKeepsIt) {
  TempDir dir;
  write_at(dir.file("a.png"), random_image(7, 5, 3, Depth::U8, 1), {Unit::inch, 300, 150});
  const Stated png = png_phys(load(dir.file("a.png")));
  EXPECT_TRUE(png.found && png.unit == 1 && png.x == 11811 && png.y == 5906);

  ASSERT_EQ(gpuimg({dir.file("a.png"), "--invert", dir.file("b.jpg")}).status, 0);
  const Stated jpg = jfif_density_of(load(dir.file("b.jpg")));
  EXPECT_TRUE(jpg.found && jpg.unit == 1 && jpg.x == 300 && jpg.y == 150) << jpg.unit << " " << jpg.x << " " << jpg.y;

#if GPUIMG_WITH_TIFF
  ASSERT_EQ(gpuimg({dir.file("b.jpg"), dir.file("c.tif")}).status, 0);
  const Stated tif = tiff_resolution(load(dir.file("c.tif")));
  EXPECT_TRUE(tif.found && tif.unit == 2 && tif.x == 300 && tif.y == 150) << tif.unit << " " << tif.x << " " << tif.y;
  ASSERT_EQ(gpuimg({dir.file("c.tif"), dir.file("d.png")}).status, 0);
#else
  ASSERT_EQ(gpuimg({dir.file("b.jpg"), dir.file("d.png")}).status, 0);
#endif
  const Stated back = png_phys(load(dir.file("d.png")));
  EXPECT_TRUE(back.found && back.unit == 1 && back.x == 11811 && back.y == 5906);
#if GPUIMG_WITH_TIFF
  // A PNG's 11811 per metre is 300 dpi in a TIFF, not 299.9994.
  ASSERT_EQ(gpuimg({dir.file("a.png"), dir.file("e.tif")}).status, 0);
  const Stated direct = tiff_resolution(load(dir.file("e.tif")));
  EXPECT_TRUE(direct.found && direct.unit == 2 && direct.x == 300 && direct.y == 150) << direct.x << " " << direct.y;
#endif
}

#if GPUIMG_WITH_TIFF
TEST(Resolution, TiffsUnitsAsStatedAndTheInchWhereNone) {
  TempDir dir;
  struct Case {
    std::uint32_t x, y, unit;
    int png_unit;
    double png_x, png_y;
  };
  const std::vector<Case> cases = {
      {300, 300, 0, 1, 11811, 11811},  // no ResolutionUnit: TIFF's default, the inch
      {300, 150, 2, 1, 11811, 5906},
      {100, 50, 3, 1, 10000, 5000},     // per centimetre
      {2, 1, 1, 0, 2, 1},               // no unit: an aspect
      {300, 300, 4, 1, 11811, 11811},   // a unit libtiff refuses: the default
  };
  for (const Case& c : cases) {
    save(dir.file("in.tif"), tiff_stating(c.x, c.y, c.unit));
    const RunResult r = gpuimg({dir.file("in.tif"), "-q", dir.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    const Stated s = png_phys(load(dir.file("out.png")));
    EXPECT_TRUE(s.found && s.unit == c.png_unit && s.x == c.png_x && s.y == c.png_y)
        << c.unit << ": " << s.unit << " " << s.x << "x" << s.y;
  }
  save(dir.file("zero.tif"), tiff_stating(0, 300, 2));
  const RunResult r = gpuimg({dir.file("zero.tif"), dir.file("zero.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("ignored a TIFF's resolution of 0"), std::string::npos) << r.err;
  EXPECT_FALSE(png_phys(load(dir.file("zero.png"))).found);
}
#endif

TEST(Resolution, BmpHoldsPixelsPerMetre) {
  TempDir dir;
  write_at(dir.file("a.png"), random_image(5, 3, 3, Depth::U8, 12), {Unit::inch, 96, 300});
  ASSERT_EQ(gpuimg({dir.file("a.png"), dir.file("b.bmp")}).status, 0);
  EXPECT_EQ(bmp_ppm(load(dir.file("b.bmp"))), std::make_pair(3780u, 11811u));
  ASSERT_EQ(gpuimg({dir.file("b.bmp"), "--grayscale", dir.file("c.bmp")}).status, 0);
  EXPECT_EQ(bmp_ppm(load(dir.file("c.bmp"))), std::make_pair(3780u, 11811u));
  ASSERT_EQ(gpuimg({dir.file("c.bmp"), dir.file("d.jpg")}).status, 0);
  const Stated jpg = jfif_density_of(load(dir.file("d.jpg")));
  EXPECT_TRUE(jpg.found && jpg.unit == 1 && jpg.x == 96 && jpg.y == 300);
  // With none: stb_image_write's RGB BMP states none, gpuimg's gray one 72 dpi.
  write_at(dir.file("none.png"), random_image(5, 3, 3, Depth::U8, 13), Resolution{});
  ASSERT_EQ(gpuimg({dir.file("none.png"), dir.file("rgb.bmp")}).status, 0);
  EXPECT_EQ(bmp_ppm(load(dir.file("rgb.bmp"))), std::make_pair(0u, 0u));
  ASSERT_EQ(gpuimg({dir.file("rgb.bmp"), dir.file("rgb.png")}).status, 0);
  EXPECT_FALSE(png_phys(load(dir.file("rgb.png"))).found);
  ASSERT_EQ(gpuimg({dir.file("none.png"), "--grayscale", dir.file("gray.bmp")}).status, 0);
  EXPECT_EQ(bmp_ppm(load(dir.file("gray.bmp"))), std::make_pair(2835u, 2835u));
  // An aspect alone: none stated, not 72 dpi, and -v says so.
  write_at(dir.file("tall.png"), random_image(5, 3, 3, Depth::U8, 14), {Unit::aspect, 1, 2});
  for (const std::string gray : {"", "--grayscale"}) {
    std::vector<std::string> args = {dir.file("tall.png"), "-v", dir.file("tall.bmp")};
    if (!gray.empty()) args.insert(args.begin() + 1, gray);
    const RunResult r = gpuimg(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(bmp_ppm(load(dir.file("tall.bmp"))), std::make_pair(0u, 0u)) << gray;
    EXPECT_NE(r.err.find(": BMP holds no resolution; written without it\n"), std::string::npos) << r.err;
  }
}

TEST(Resolution, CentimetresAndAspectStayAsStated) {
  TempDir dir;
  write_at(dir.file("cm.jpg"), random_image(6, 4, 3, Depth::U8, 2), {Unit::centimetre, 118, 59});
  ASSERT_EQ(gpuimg({dir.file("cm.jpg"), "--resize", "50%", dir.file("cm2.jpg")}).status, 0);
  const Stated jpg = jfif_density_of(load(dir.file("cm2.jpg")));
  EXPECT_TRUE(jpg.found && jpg.unit == 2 && jpg.x == 118 && jpg.y == 59);  // resizing keeps it, as ImageMagick
  ASSERT_EQ(gpuimg({dir.file("cm.jpg"), dir.file("cm.png")}).status, 0);
  const Stated png = png_phys(load(dir.file("cm.png")));
  EXPECT_TRUE(png.found && png.unit == 1 && png.x == 11800 && png.y == 5900);
#if GPUIMG_WITH_TIFF
  ASSERT_EQ(gpuimg({dir.file("cm.jpg"), dir.file("cm.tif")}).status, 0);
  const Stated tif = tiff_resolution(load(dir.file("cm.tif")));
  EXPECT_TRUE(tif.found && tif.unit == 3 && tif.x == 118 && tif.y == 59);
#endif

  write_at(dir.file("wide.jpg"), random_image(6, 4, 3, Depth::U8, 3), {Unit::aspect, 2, 1});
  ASSERT_EQ(gpuimg({dir.file("wide.jpg"), dir.file("wide.png")}).status, 0);
  const Stated aspect = png_phys(load(dir.file("wide.png")));
  EXPECT_TRUE(aspect.found && aspect.unit == 0 && aspect.x == 2 && aspect.y == 1);
}

TEST(Resolution, SquarePixelsOfNoSizeWriteNone) {
  TempDir dir;
  // libjpeg's own JFIF header: no unit, 1:1.
  write_at(dir.file("a.jpg"), random_image(5, 5, 3, Depth::U8, 4), Resolution{});
  const Stated jpg = jfif_density_of(load(dir.file("a.jpg")));
  EXPECT_TRUE(jpg.found && jpg.unit == 0 && jpg.x == 1 && jpg.y == 1);
  ASSERT_EQ(gpuimg({dir.file("a.jpg"), dir.file("b.png")}).status, 0);
  EXPECT_FALSE(png_phys(load(dir.file("b.png"))).found);
}

TEST(Resolution, TurnsWithThePixels) {
  TempDir dir;
  const Image img = random_image(7, 5, 3, Depth::U8, 5);
  write_at(dir.file("a.png"), img, {Unit::inch, 300, 150});
  write_at(dir.file("sideways.png"), img, {Unit::inch, 300, 150}, exif_block(6));
  struct Case {
    std::vector<std::string> args;
    bool swapped;
  };
  const std::vector<Case> cases = {
      {{dir.file("a.png"), "--rotate", "90"}, true},
      {{dir.file("a.png"), "--rotate", "-90", "--crop", "3x3+1+1"}, true},
      {{dir.file("a.png"), "--rotate", "180"}, false},
      {{dir.file("a.png"), "--transpose", "--rotate", "270"}, false},
      {{dir.file("a.png"), "--flip", "--flop", "--resize", "3x9"}, false},
      {{dir.file("sideways.png")}, true},
      {{dir.file("sideways.png"), "--transpose"}, false},
      {{dir.file("sideways.png"), "--no-auto-orient"}, false},  // the tag still says how to turn them
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back(dir.file("out.png"));
    const RunResult r = gpuimg(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const Stated s = png_phys(load(dir.file("out.png")));
    const double x = c.swapped ? 5906 : 11811, y = c.swapped ? 11811 : 5906;
    EXPECT_TRUE(s.found && s.x == x && s.y == y) << args[1] << ": " << s.x << "x" << s.y;
  }
}

TEST(Resolution, StripKeepsIt) {
  TempDir dir;
  write_at(dir.file("a.png"), random_image(4, 4, 4, Depth::U16, 6), {Unit::inch, 72, 96}, exif_block(1));
  ASSERT_EQ(gpuimg({dir.file("a.png"), "--strip", dir.file("b.png")}).status, 0);
  const Bytes b = load(dir.file("b.png"));
  EXPECT_TRUE(png_items(b).exif.empty());
  const Stated s = png_phys(b);
  EXPECT_TRUE(s.found && s.unit == 1 && s.x == 2835 && s.y == 3780);
  ASSERT_EQ(gpuimg({dir.file("a.png"), "--strip", dir.file("b.jpg")}).status, 0);
  const Stated jpg = jfif_density_of(load(dir.file("b.jpg")));
  EXPECT_TRUE(jpg.found && jpg.unit == 1 && jpg.x == 72 && jpg.y == 96);
#if GPUIMG_WITH_TIFF
  ASSERT_EQ(gpuimg({dir.file("a.png"), "--strip", dir.file("b.tif")}).status, 0);
  const Stated tif = tiff_resolution(load(dir.file("b.tif")));
  EXPECT_TRUE(tif.found && tif.unit == 2 && tif.x == 72 && tif.y == 96);
#endif
  const RunResult r = gpuimg({dir.file("a.png"), "--strip", "-v", dir.file("b.webp")});
  EXPECT_NE(r.err.find(": WebP holds no resolution; written without it\n"), std::string::npos) << r.err;
}

TEST(Resolution, FormatsThatHoldNoneSaySoUnderVerbose) {
  TempDir dir;
  write_at(dir.file("a.png"), random_image(4, 3, 3, Depth::U8, 7), {Unit::inch, 96, 96});
  const std::vector<std::pair<std::string, std::string>> formats = {{"b.tga", "TGA"}, {"b.webp", "WebP"}, {"b.ppm", "PNM"}};
  for (const auto& [name, format] : formats) {
    const RunResult r = gpuimg({dir.file("a.png"), "-v", dir.file(name)});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("gpuimg: " + dir.file(name) + ": " + format + " holds no resolution; written without it\n"),
              std::string::npos)
        << r.err;
  }
  Metadata m;
  m.resolution = {Unit::inch, 96, 96};
  m.icc = icc_profile(500);
  ASSERT_TRUE(write_image(dir.file("c.png"), random_image(4, 3, 3, Depth::U8, 8), WriteOptions{}, m).empty());
  const RunResult r = gpuimg({dir.file("c.png"), "-v", dir.file("c.tga")});
  EXPECT_NE(r.err.find(": TGA holds no ICC profile or resolution; written without them\n"), std::string::npos) << r.err;
}

TEST(Resolution, DensitiesOutOfRangeAreSetAsideAndNamed) {
  TempDir dir;
  write_at(dir.file("a.png"), random_image(3, 3, 3, Depth::U8, 9), Resolution{});
  const Bytes good = load(dir.file("a.png"));
  const std::size_t after_ihdr = 8 + 25;
  for (const Bytes& phys : {Bytes{0, 0, 0, 0, 0, 0, 0, 1, 1}, Bytes{0, 0, 0, 1, 0, 0, 0, 1, 2}, Bytes{0, 0, 0, 1, 0}}) {
    Bytes chunk;
    put_png_chunk(chunk, "pHYs", phys);
    Bytes bad(good.begin(), good.begin() + after_ihdr);
    bad.insert(bad.end(), chunk.begin(), chunk.end());
    bad.insert(bad.end(), good.begin() + after_ihdr, good.end());
    save(dir.file("bad.png"), bad);
    const RunResult r = gpuimg({dir.file("bad.png"), dir.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("a PNG pHYs chunk that is not 9 bytes, or whose size or unit is out of range"), std::string::npos)
        << r.err;
    EXPECT_FALSE(png_phys(load(dir.file("out.png"))).found);
  }

  // A sound pHYs after the pixels, which PNG forbids and libpng ignores: ignored.
  Bytes late(good.begin(), good.end() - 12);
  put_png_chunk(late, "pHYs", {0, 0, 0x2e, 0x23, 0, 0, 0x2e, 0x23, 1});
  late.insert(late.end(), good.end() - 12, good.end());
  save(dir.file("late.png"), late);
  ASSERT_EQ(gpuimg({dir.file("late.png"), dir.file("late_out.png")}).status, 0);
  EXPECT_FALSE(png_phys(load(dir.file("late_out.png"))).found);

  write_at(dir.file("a.jpg"), random_image(3, 3, 3, Depth::U8, 10), {Unit::inch, 300, 300});
  Bytes jpg = load(dir.file("a.jpg"));
  ASSERT_EQ(jpg[2], 0xff);
  ASSERT_EQ(jpg[3], 0xe0);
  jpg[4 + 2 + 7] = 3;  // unit 3: none JFIF defines
  save(dir.file("bad.jpg"), jpg);
  RunResult r = gpuimg({dir.file("bad.jpg"), dir.file("out.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("a JPEG's JFIF density, whose unit or size is out of range"), std::string::npos) << r.err;
  EXPECT_FALSE(png_phys(load(dir.file("out.png"))).found);
  // No unit and 0:0, which some writers put for no aspect: none, unsaid.
  jpg[4 + 2 + 7] = 0;
  for (int i = 8; i < 12; ++i) jpg[4 + 2 + i] = 0;
  save(dir.file("zero.jpg"), jpg);
  r = gpuimg({dir.file("zero.jpg"), dir.file("zero.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(png_phys(load(dir.file("zero.png"))).found);
}

// IFD0's XResolution and YResolution (x/1, y/den) and, where unit is not
// 0, ResolutionUnit, as a camera writes them.
Bytes exif_resolution(std::int64_t x, std::int64_t y, std::int64_t den, std::int64_t unit,
                      ExifFormat unit_format = EXIF_FORMAT_SHORT) {
  std::vector<TagSpec> tags = {{EXIF_IFD_0, 0x011a, EXIF_FORMAT_RATIONAL, 1, {x, 1}},
                               {EXIF_IFD_0, 0x011b, EXIF_FORMAT_RATIONAL, 1, {y, den}}};
  if (unit) tags.push_back({EXIF_IFD_0, 0x0128, unit_format, 1, {unit}});
  return libexif_block(tags, false);
}

// A JPEG as a camera writes it: EXIF, and no JFIF segment.
void write_camera_jpeg(const std::string& path, const Bytes& exif) {
  write_at(path, random_image(4, 3, 3, Depth::U8, 12), Resolution{}, exif);
  Bytes jpg = load(path);
  ASSERT_EQ(jpg[3], 0xe0);  // gpuimg's writer puts JFIF first
  jpg.erase(jpg.begin() + 2, jpg.begin() + 4 + (std::size_t{jpg[4]} << 8 | jpg[5]));
  save(path, jpg);
}

// Where the format's own field says nothing, EXIF's resolution is the
// image's, as Pillow and libvips take it: in its unit, the inch where it
// names none, an aspect where it says "none"; JFIF's, where there is one,
// comes first.
TEST(Resolution, ACamerasJpegSaysItInExifAlone) {
  TempDir dir;
  struct Case {
    Bytes exif;
    Stated png;  // PNG's pHYs: unit 1 is the metre
  };
  for (const Case& c : {Case{exif_resolution(300, 300, 1, 2), {true, 1, 11811, 11811}},
                        Case{exif_resolution(300, 150, 1, 0), {true, 1, 11811, 5906}},
                        Case{exif_resolution(120, 60, 1, 3), {true, 1, 12000, 6000}},
                        Case{exif_resolution(120, 60, 1, 3, EXIF_FORMAT_LONG), {true, 1, 12000, 6000}},
                        Case{exif_resolution(2, 1, 1, 1), {true, 0, 2, 1}}}) {
    write_camera_jpeg(dir.file("camera.jpg"), c.exif);
    const RunResult r = gpuimg({dir.file("camera.jpg"), dir.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Stated got = png_phys(load(dir.file("out.png")));
    EXPECT_TRUE(got.found);
    EXPECT_EQ(got.unit, c.png.unit);
    EXPECT_EQ(got.x, c.png.x);
    EXPECT_EQ(got.y, c.png.y);
  }

  write_at(dir.file("jfif.jpg"), random_image(4, 3, 3, Depth::U8, 13), {Unit::inch, 72, 72},
           exif_resolution(300, 300, 1, 2));
  ASSERT_EQ(gpuimg({dir.file("jfif.jpg"), dir.file("jfif.png")}).status, 0);
  EXPECT_EQ(png_phys(load(dir.file("jfif.png"))).x, 2835);  // 72 dpi
  // Other formats' EXIF is theirs to keep: a PNG's own pHYs says it or nothing does.
  write_at(dir.file("exif.png"), random_image(4, 3, 3, Depth::U8, 14), Resolution{}, exif_resolution(300, 300, 1, 2));
  ASSERT_EQ(gpuimg({dir.file("exif.png"), dir.file("exif_out.png")}).status, 0);
  EXPECT_FALSE(png_phys(load(dir.file("exif_out.png"))).found);

  for (const Bytes& bad : {exif_resolution(300, 300, 0, 2), exif_resolution(0, 300, 1, 2), exif_resolution(300, 300, 1, 4)}) {
    write_camera_jpeg(dir.file("bad.jpg"), bad);
    const RunResult r = gpuimg({dir.file("bad.jpg"), dir.file("bad.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("EXIF's resolution, whose unit or size is out of range"), std::string::npos) << r.err;
    EXPECT_FALSE(png_phys(load(dir.file("bad.png"))).found);
  }
}

// A JFIF density is 16 bits: past 65535 a unit, held at 65535, and -v says
// so. A BMP's pixels per metre are signed: negative ones are set aside.
TEST(Resolution, PastAJfifDensityIsHeldAndANegativeBmpSetAside) {
  TempDir dir;
  write_at(dir.file("fine.png"), random_image(4, 3, 3, Depth::U8, 15), {Unit::inch, 101600, 300});
  RunResult r = gpuimg({dir.file("fine.png"), "-v", dir.file("fine.jpg")});
  ASSERT_EQ(r.status, 0) << r.err;
  const Stated jpg = jfif_density_of(load(dir.file("fine.jpg")));
  EXPECT_TRUE(jpg.found && jpg.unit == 1 && jpg.x == 65535 && jpg.y == 300);
  EXPECT_NE(r.err.find(": the resolution 101600 by 300 per inch passes the 65535 a JFIF density holds; written as "
                       "65535 by 300\n"),
            std::string::npos)
      << r.err;

  ASSERT_EQ(gpuimg({dir.file("fine.png"), dir.file("a.bmp")}).status, 0);
  Bytes bmp = load(dir.file("a.bmp"));
  for (int i = 0; i < 4; ++i) bmp[42 + i] = 0xff;  // y: -1 pixel a metre
  save(dir.file("negative.bmp"), bmp);
  r = gpuimg({dir.file("negative.bmp"), dir.file("negative.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("a BMP's resolution, whose pixels per metre are negative"), std::string::npos) << r.err;
  EXPECT_FALSE(png_phys(load(dir.file("negative.png"))).found);
}

TEST(Resolution, BatchKeepsIt) {
  TempDir dir;
  fs::create_directory(dir / "in");
  write_at(dir.file("in/a.png"), random_image(5, 4, 3, Depth::U8, 11), {Unit::inch, 300, 150});
  const RunResult r = gpuimg({dir.file("in"), dir.file("out/"), "--rotate", "90", "--format", "jpg"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Stated s = jfif_density_of(load(dir.file("out/a.jpg")));
  EXPECT_TRUE(s.found && s.unit == 1 && s.x == 150 && s.y == 300);
}

}  // namespace
}  // namespace gpuimg::test
