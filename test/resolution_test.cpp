// The resolution (PNG pHYs, JPEG JFIF density, TIFF XResolution,
// YResolution and ResolutionUnit) kept from input to output, turned with
// the pixels, kept by --strip and named where a format holds none; each
// written file's fields read back by the test's own walks of its bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metadata.hpp"
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
}

TEST(ResolutionNumbers, WholeNumbersAreRoundedHalfUpAndHeldToTheirField) {
  const StoredDensity j = jfif_density({Unit::centimetre, 0.2, 70000});
  EXPECT_EQ(j.unit, 2);
  EXPECT_EQ(j.x, 1u);
  EXPECT_EQ(j.y, 65535u);
  EXPECT_EQ(jfif_density({Unit::inch, 71.5, 72.49}).x, 72u);
  EXPECT_EQ(jfif_density({Unit::inch, 71.5, 72.49}).y, 72u);
  const StoredDensity p = png_density({Unit::aspect, 2, 1e12});
  EXPECT_EQ(p.unit, 0);
  EXPECT_EQ(p.x, 2u);
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
  write_at(dir.file("a.png"), random_image(4, 4, 4, Depth::U16, 6), {Unit::inch, 72, 72}, exif_block(1));
  ASSERT_EQ(gpuimg({dir.file("a.png"), "--strip", dir.file("b.png")}).status, 0);
  const Bytes b = load(dir.file("b.png"));
  EXPECT_TRUE(png_items(b).exif.empty());
  const Stated s = png_phys(b);
  EXPECT_TRUE(s.found && s.unit == 1 && s.x == 2835 && s.y == 2835);
}

TEST(Resolution, FormatsThatHoldNoneSaySoUnderVerbose) {
  TempDir dir;
  write_at(dir.file("a.png"), random_image(4, 3, 3, Depth::U8, 7), {Unit::inch, 96, 96});
  const std::vector<std::pair<std::string, std::string>> formats = {{"b.bmp", "BMP"}, {"b.webp", "WebP"}, {"b.ppm", "PNM"}};
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

  write_at(dir.file("a.jpg"), random_image(3, 3, 3, Depth::U8, 10), {Unit::inch, 300, 300});
  Bytes jpg = load(dir.file("a.jpg"));
  ASSERT_EQ(jpg[2], 0xff);
  ASSERT_EQ(jpg[3], 0xe0);
  jpg[4 + 2 + 7] = 3;  // unit 3: none JFIF defines
  save(dir.file("bad.jpg"), jpg);
  const RunResult r = gpuimg({dir.file("bad.jpg"), dir.file("out.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("a JPEG's JFIF density, whose unit or size is out of range"), std::string::npos) << r.err;
  EXPECT_FALSE(png_phys(load(dir.file("out.png"))).found);
}

TEST(Resolution, BatchKeepsIt) {
  TempDir dir;
  fs::create_directory(dir / "in");
  write_at(dir.file("in/a.png"), random_image(5, 4, 3, Depth::U8, 11), {Unit::inch, 300, 300});
  const RunResult r = gpuimg({dir.file("in"), dir.file("out/"), "--rotate", "90", "--format", "jpg"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Stated s = jfif_density_of(load(dir.file("out/a.jpg")));
  EXPECT_TRUE(s.found && s.unit == 1 && s.x == 300 && s.y == 300);
}

}  // namespace
}  // namespace gpuimg::test
