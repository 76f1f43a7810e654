// read_image_info (gpuimg info's reader): the size, channels and depth it
// reads from a file's headers are what decoding the file gives (frame 0 of
// several), for every layout each decoder reads; frames and pages counted;
// a file cut short within its pixels refused as decoding refuses it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apng_files.hpp"
#include "crafted_files.hpp"
#include "error_text.hpp"
#include "frame_options.hpp"
#include "image_info.hpp"
#include "run_binary.hpp"
#include "webp_files.hpp"
#if GPUIMG_WITH_TIFF
#include "tiff_files.hpp"
#endif

namespace gpuimg::test {
namespace {

struct Case {
  std::string name;  // the file's, in the test's folder
  Bytes bytes;
  std::size_t frames = 1;
};

Bytes encoded(const std::string& ext, const Image& img) {
  const TempDir dir;
  write_image(dir.file("x." + ext), img);
  return load(dir.file("x." + ext));
}

Bytes text_of(const std::string& s) { return Bytes(s.begin(), s.end()); }

// One file of every layout gpuimg's writers make, at both depths where the
// format holds them.
std::vector<Case> written_cases() {
  std::vector<Case> out;
  std::uint32_t seed = 1;
  for (const std::string& ext : writable_extensions())
    for (int channels = 1; channels <= 4; ++channels)
      for (const Depth depth : {Depth::U8, Depth::U16}) {
        const std::string name = ext + "-" + describe(channels, depth) + "." + ext;
        out.push_back({name, encoded(ext, random_image(5, 3, channels, depth, seed++))});
      }
  return out;
}

// Layouts only other tools write: palettes, packed bits, text PNM, run
// lengths, PSD, GIF, colour-mapped TGA.
std::vector<Case> crafted_cases() {
  std::vector<Case> out;
  for (const char* name : {"gray4bit.png", "palette.png", "gray_alpha16.png"})
    out.push_back({name, load((data_dir() / name).string())});
  out.push_back({"p1.pbm", text_of("P1 3 2\n1 0 1\n0 1 0\n")});
  out.push_back({"p2-16.pgm", text_of("P2 2 2 1000\n0 500\n999 1000\n")});
  out.push_back({"p3.ppm", text_of("P3 1 2 255\n1 2 3\n4 5 6\n")});
  out.push_back({"p4.pbm", Bytes{'P', '4', ' ', '9', ' ', '2', '\n', 0xff, 0x80, 0x00, 0x00}});
  const Bytes gray_palette = {0, 0, 0, 0, 128, 128, 128, 0, 255, 255, 255, 0};
  const Bytes colour_palette = {0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0};
  const Bytes rle8 = {4, 1, 0, 0, 2, 2, 2, 0, 0, 1};  // two rows of 4, then end of bitmap
  out.push_back({"rle-gray.bmp", bmp_indexed(4, 2, 8, gray_palette, rle8, 1)});
  out.push_back({"rle-colour.bmp", bmp_indexed(4, 2, 8, colour_palette, rle8, 1)});
  out.push_back({"rows-gray.bmp", bmp_indexed(4, 2, 8, gray_palette, bmp_rows({0, 1, 2, 0, 1, 2, 0, 1}, 4, 8))});
  out.push_back({"rgb.psd", psd_file(3, 2, 3, 8, std::vector<std::uint16_t>(18, 7))});
  out.push_back({"gray-alpha16.psd", psd_file(3, 2, 2, 16, std::vector<std::uint16_t>(12, 300), 1)});
  out.push_back({"still.gif", gif_file(5, 4, 1, {1, 1, 2, 2, gif_lzw({0, 1, 2, 3}, 2)})});
  out.push_back({"mapped.tga", tga_mapped(2, 2, {0, 0, 255, 0, 255, 0}, {0, 1, 1, 0})});
#if GPUIMG_WITH_TIFF
  TiffSpec palette;
  palette.width = 3;
  palette.height = 2;
  palette.photometric = PHOTOMETRIC_PALETTE;
  palette.bits = 2;
  for (int channel = 0; channel < 3; ++channel)
    for (int i = 0; i < 4; ++i) palette.colormap.push_back(static_cast<std::uint16_t>(257 * 60 * (i + channel)));
  out.push_back({"palette.tif", tiff_bytes(palette, {Bytes{0x1b, 0x40}})});
  TiffSpec bilevel;
  bilevel.width = 9;
  bilevel.height = 1;
  bilevel.bits = 1;
  bilevel.photometric = PHOTOMETRIC_MINISWHITE;
  out.push_back({"bilevel.tif", tiff_bytes(bilevel, {Bytes{0xa5, 0x80}})});
  TiffSpec planar;
  planar.width = 2;
  planar.height = 2;
  planar.bits = 16;
  planar.samples = 4;
  planar.photometric = PHOTOMETRIC_RGB;
  planar.planar = true;
  const Image rgba16 = random_image(2, 2, 4, Depth::U16, 40);
  out.push_back({"planar.tif", tiff_bytes(planar, tiff_planes(rgba16, true))});
#endif
  return out;
}

// Files of several frames: the shape is frame 0's, as --frame 0 reads it.
std::vector<Case> animated_cases() {
  std::vector<Case> out;
  const std::vector<GifFrame> gif = {{0, 0, 4, 3, gif_lzw(Bytes(12, 1), 2)},
                                     {1, 1, 2, 2, gif_lzw({2, 3, 2, 3}, 2)},
                                     {0, 0, 1, 1, gif_lzw({3}, 2)}};
  out.push_back({"anim.gif", animated_gif(4, 3, gif), 3});
  // The default image apart from the animation is frame 0: RGB, where the
  // frames after it gain alpha.
  const Image still = random_image(4, 3, 3, Depth::U8, 50);
  out.push_back({"anim.png", make_apng({{random_image(4, 3, 3, Depth::U8, 51)}, {random_image(2, 2, 3, Depth::U8, 52)}}, &still), 3});
  std::vector<Image> frames;
  for (std::uint32_t k = 0; k < 2; ++k) frames.push_back(random_image(6, 4, 4, Depth::U8, 60 + k));
  out.push_back({"anim.webp", animated_webp(frames), 2});
#if GPUIMG_WITH_TIFF
  TiffSpec first, second;
  first.width = 5;
  first.height = 2;
  first.bits = 16;
  second.width = 2;
  second.height = 7;
  second.samples = 3;
  second.photometric = PHOTOMETRIC_RGB;
  const Image gray16 = random_image(5, 2, 1, Depth::U16, 70), rgb = random_image(2, 7, 3, Depth::U8, 71);
  out.push_back({"pages.tif", tiff_bytes({{first, tiff_planes(gray16, false)}, {second, tiff_planes(rgb, false)}}), 2});
#endif
  return out;
}

void expect_shape_of_decoding(const std::vector<Case>& cases) {
  const TempDir dir;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    save(dir.file(c.name), c.bytes);
    const Image decoded = read_image(dir.file(c.name), frame(0));
    const ImageInfo info = read_image_info(dir.file(c.name));
    EXPECT_EQ(info.shape.width, static_cast<std::uint64_t>(decoded.width));
    EXPECT_EQ(info.shape.height, static_cast<std::uint64_t>(decoded.height));
    EXPECT_EQ(info.shape.channels, decoded.channels);
    EXPECT_EQ(info.shape.depth, decoded.depth);
    EXPECT_EQ(info.frames, c.frames);
  }
}

TEST(ImageInfo, BundledImagesGiveWhatDecodingGives) {
  std::vector<Case> cases;
  for (const auto& entry : fs::directory_iterator(data_dir()))
    if (entry.path().extension() == ".png") cases.push_back({entry.path().filename().string(), load(entry.path().string())});
  ASSERT_GE(cases.size(), 8u);
  expect_shape_of_decoding(cases);
}

TEST(ImageInfo, EveryWrittenLayoutGivesWhatDecodingGives) { expect_shape_of_decoding(written_cases()); }

TEST(ImageInfo, OtherToolsLayoutsGiveWhatDecodingGives) { expect_shape_of_decoding(crafted_cases()); }

TEST(ImageInfo, FramesAndPagesAreCountedAndTheFirstIsDescribed) { expect_shape_of_decoding(animated_cases()); }

// Header-only, but not blind to a cut: each format's own check of its
// structure refuses the file, in decoding's words. JPEG and PNG are
// refused by read_input's walk of their markers and chunks; TIFF by where
// its strips lie; uncompressed BMP and binary PNM by the size their header
// gives exactly, a byte short of it being enough.
TEST(ImageInfo, AFileCutShortIsRefusedAsDecodingRefusesIt) {
  const TempDir dir;
  std::vector<Case> cut;
  const auto cut_by = [&](const std::string& name, Bytes b, std::size_t n) {
    b.resize(b.size() - n);
    cut.push_back({name, b});
  };
  std::vector<std::string> encoders{"png", "jpg", "webp"};
#if GPUIMG_WITH_TIFF
  encoders.push_back("tif");  // builds without libtiff (the GPU machine's) write no TIFF
#endif
  for (const std::string& ext : encoders)
    cut_by("cut." + ext, encoded(ext, random_image(40, 30, 3, Depth::U8, 80)), 20);
  for (const int channels : {1, 3}) {
    const Image img = random_image(40, 30, channels, Depth::U8, 81);
    cut_by("cut-" + std::to_string(channels) + ".bmp", encoded("bmp", img), 1);
    cut_by("cut-" + std::to_string(channels) + ".pnm", encoded("pnm", img), 1);
  }
  cut_by("cut-16.pnm", encoded("pnm", random_image(40, 30, 3, Depth::U16, 82)), 1);
  Bytes p4 = text_of("P4\n40 30\n");
  p4.resize(p4.size() + 5 * 30, 0x5a);
  cut_by("cut-p4.pbm", p4, 1);
  // 8-bit indices, rows of 40 (a multiple of 4: the last byte is a pixel's).
  cut_by("cut-8bit.bmp", bmp_indexed(40, 30, 8, Bytes(16, 0), bmp_rows(Bytes(40 * 30, 3), 40, 8)), 1);
#if GPUIMG_WITH_TIFF
  // Its directory first, its one strip last.
  cut_by("cut-strip.tif", gray_tiff({{256, 3, 40}, {257, 3, 30}}, 40, 30, Bytes(40 * 30, 9)), 1);
#endif
  for (const Case& c : cut) {
    SCOPED_TRACE(c.name);
    save(dir.file(c.name), c.bytes);
    const std::string decoding = error_of<InputError>([&] { read_image(dir.file(c.name)); });
    EXPECT_EQ(decoding.rfind(dir.file(c.name) + ": ", 0), 0u) << decoding;
    EXPECT_EQ(error_of<InputError>([&] { read_image_info(dir.file(c.name)); }), decoding);
  }
}

// What decoding refuses from the header alone, info refuses in the same
// words, though nothing is decoded: a layout the decoder does not read, a
// side past an int's (which no pixel limit stops first: info has none).
TEST(ImageInfo, AHeaderItsDecoderRefusesIsRefused) {
  const TempDir dir;
  std::vector<std::pair<Case, std::string>> refused;
  // A 12-bit frame header (SOF1) is enough: libjpeg refuses the precision
  // before any scan.
  Bytes twelve_bit = encoded("jpg", random_image(16, 16, 1, Depth::U8, 83));
  const std::size_t sof = find_segment(twelve_bit, 0xc0);
  ASSERT_LT(sof + 4, twelve_bit.size());
  twelve_bit[sof + 1] = 0xc1;
  twelve_bit[sof + 4] = 12;
  refused.push_back({{"12bit.jpg", twelve_bit}, "12-bit JPEG is not supported (8-bit samples only)"});
#if GPUIMG_WITH_TIFF
  TiffSpec cmyk;
  cmyk.width = 4;
  cmyk.height = 2;
  cmyk.samples = 4;
  cmyk.photometric = PHOTOMETRIC_SEPARATED;
  refused.push_back({{"cmyk.tif", tiff_bytes(cmyk, {Bytes(4 * 4 * 2, 0)})}, "unsupported TIFF (separated colour (CMYK))"});
  // 4294967280x1 in one JPEG strip: JPEG compression claims no least size,
  // so the file may be tiny.
  std::vector<TiffEntry> wide = {{256, 4, 4294967280u}, {257, 4, 1}, {258, 3, 8}, {259, 3, 7}, {262, 3, 1},
                                 {273, 4, 0},           {277, 3, 1}, {278, 4, 1}, {279, 4, 100}};
  wide[5].value = tiff_data_offset(wide.size());
  refused.push_back({{"wide.tif", tiff_file(wide, Bytes(100, 0))},
                     "unsupported TIFF (4294967280x1; sides up to 2^31 - 1)"});
#endif
  // A PNM's maximum of 0, binary or text, and a BMP's negative width.
  const auto bytes = [](const std::string& t) { return Bytes(t.begin(), t.end()); };
  for (const char* header : {"P5\n2 1\n0\n\x01\x02", "P6 1 1 0\n\x01\x02\x03", "P2 2 1 0\n0 0\n"})
    refused.push_back({{std::string("zero") + header[1] + ".pnm", bytes(header)}, "corrupt PNM (maximum value 0)"});
  Bytes bmp = bytes("BM");
  for (const std::uint32_t v : {58u, 0u, 54u, 40u, 0xfffffffdu, 1u}) put_le(bmp, v, 4);
  put_le(bmp, 1, 2);
  put_le(bmp, 24, 2);
  bmp.resize(58, 0);
  refused.push_back({{"negative.bmp", bmp}, "corrupt BMP (negative width, -3)"});
  for (const auto& [c, message] : refused) {
    SCOPED_TRACE(c.name);
    save(dir.file(c.name), c.bytes);
    ReadOptions unlimited;
    unlimited.max_pixels = UINT64_MAX;
    EXPECT_EQ(read_error(dir.file(c.name), unlimited), dir.file(c.name) + ": " + message);
    const std::string path = dir.file(c.name);  // a lambda may not capture a structured binding (clang, C++17)
    EXPECT_EQ(error_of<InputError>([&] { read_image_info(path); }), path + ": " + message);
  }
}

}  // namespace
}  // namespace gpuimg::test
