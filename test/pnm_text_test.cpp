// Plain-text PNM (P1, P2, P3) and P4 bitmaps, read by gpuimg's own reader
// (stb_image refuses them): pinned values, written here by hand, and the
// pixels OpenCV's PxM decoder gives for random files, which gpuimg read
// through OpenCV before.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "crafted_files.hpp"
#include "error_text.hpp"
#include "run_binary.hpp"
#if GPUIMG_WITH_OPENCV
#include "opencv_decode.hpp"
#endif

namespace gpuimg::test {
namespace {

Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }

TEST(PnmText, PinnedValues) {
  // P1: a set bit is black; digits may touch.
  EXPECT_EQ(decode_image_bytes("a.pbm", text("P1\n4 1\n0101")).data, (Bytes{255, 0, 255, 0}));
  // P2 below 256: scaled to 8 bits, floor(v * 255 / M); past M, M.
  EXPECT_EQ(decode_image_bytes("a.pgm", text("P2\n4 1\n2\n0 1 2 7\n")).data, (Bytes{0, 127, 255, 255}));
  // P3 over 255: 16-bit as written.
  const Image rgb = decode_image_bytes("a.ppm", text("P3 1 1 300\n1 299 400\n"));
  ASSERT_EQ(rgb.depth, Depth::U16);
  ASSERT_EQ(rgb.channels, 3);
  EXPECT_EQ(rgb.samples<std::uint16_t>()[0], 1);
  EXPECT_EQ(rgb.samples<std::uint16_t>()[1], 299);
  EXPECT_EQ(rgb.samples<std::uint16_t>()[2], 300);
  // P4: rows padded to a byte, most significant bit first.
  Bytes p4 = text("P4\n10 1\n");
  p4.insert(p4.end(), {0xa5, 0xc0});
  EXPECT_EQ(decode_image_bytes("a.pbm", p4).data, (Bytes{0, 255, 0, 255, 255, 0, 255, 0, 0, 0}));
}

TEST(PnmText, CutShortOrMalformedIsRefused) {
  EXPECT_EQ(error_of<InputError>([] { decode_image_bytes("a.pgm", text("P2\n3 1\n255\n1 2")); }),
            "a.pgm: truncated PNM");
  EXPECT_EQ(error_of<InputError>([] { decode_image_bytes("a.pbm", text("P1\n2 1\n0 2")); }),
            "a.pbm: corrupt PNM (a P1 pixel must be 0 or 1)");
  EXPECT_EQ(error_of<InputError>([] { decode_image_bytes("a.pgm", text("P2\n1 1\n0\n0")); }),
            "a.pgm: corrupt PNM (maximum value 0)");
  // A byte a sample at the least, counted from the header before decoding.
  EXPECT_EQ(error_of<InputError>([] { decode_image_bytes("a.pgm", text("P2 10000 10000 255 1")); }),
            "a.pgm: truncated PNM (a 10000x10000 image needs at least 100000000 bytes; the file has 20)");
  // Binary ones go to stb_image, whose int would overflow on a longer
  // number (the decode fuzzer's find): refused before it reads them.
  for (const char* header : {"P5 77777777777 1 255\n", "P6 1 1 # c\n 2147483648\n", "P5 1 9999999999 255\n"})
    EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.pgm", text(std::string(header) + "xyz")); }),
              "a.pgm: corrupt PNM (a header number past 2^31 - 1)")
        << header;
}

#if GPUIMG_WITH_OPENCV
// Random files of each kind, maxima and sizes, as OpenCV reads them.
TEST(PnmText, PixelsAreOpenCvs) {
  std::mt19937 rng(7);
  for (const char kind : {'1', '2', '3', '4'})
    for (const int max : {1, 2, 15, 255, 256, 1000, 65535})
      for (const auto& [w, h] : {std::pair{1, 1}, {1, 7}, {9, 1}, {13, 5}}) {
        if ((kind == '1' || kind == '4') && max != 1) continue;
        std::string s = std::string("P") + kind + "\n# made by the test\n" + std::to_string(w) + " " + std::to_string(h) + "\n";
        if (kind == '2' || kind == '3') s += std::to_string(max) + "\n";
        Bytes file = text(s);
        const int samples = w * h * (kind == '3' ? 3 : 1);
        if (kind == '4') {
          for (int i = 0; i < (w + 7) / 8 * h; ++i) file.push_back(static_cast<std::uint8_t>(rng()));
        } else {
          std::string body;
          for (int i = 0; i < samples; ++i)
            body += std::to_string(rng() % (kind == '1' ? 2 : max + 1 + max / 4)) + (i % 7 == 6 ? "\n" : " ");
          file.insert(file.end(), body.begin(), body.end());
        }
        SCOPED_TRACE(s);
        EXPECT_TRUE(same_samples(opencv_decode(file), decode_image_bytes("a.pnm", file)));
      }
}
#endif

// Binary P5 and P6 (stb_image) follow the stated maximum as P2 and P3 do:
// the same samples written both ways give the same image.
TEST(PnmBinary, MaximumIsAppliedAsInTextFiles) {
  std::mt19937 rng(9);
  for (const char kind : {'5', '6'})
    for (const int max : {1, 2, 15, 100, 254, 255, 256, 1000, 4095, 65534, 65535})
      for (const auto& [w, h] : {std::pair{1, 1}, {1, 7}, {9, 1}, {13, 5}}) {
        const std::string dims = std::to_string(w) + " " + std::to_string(h) + "\n" + std::to_string(max) + "\n";
        const int wide = max > 255 ? 2 : 1;
        const int samples = w * h * (kind == '6' ? 3 : 1);
        // Past M too, as far as the sample's bytes reach.
        const int top = std::min(max + 1 + max / 4, wide == 2 ? 65535 : 255);
        std::string body;
        Bytes binary = text(std::string("P") + kind + "\n" + dims);
        for (int i = 0; i < samples; ++i) {
          const int v = static_cast<int>(rng() % (top + 1));
          body += std::to_string(v) + " ";
          if (wide == 2) binary.push_back(static_cast<std::uint8_t>(v >> 8));
          binary.push_back(static_cast<std::uint8_t>(v));
        }
        const Bytes plain = text(std::string("P") + char(kind - 3) + "\n" + dims + body);
        SCOPED_TRACE(std::string(binary.begin(), binary.begin() + 3 + static_cast<long>(dims.size())));
        const Image from_binary = decode_image_bytes("a.pnm", binary);
        EXPECT_EQ(from_binary.depth, wide == 2 ? Depth::U16 : Depth::U8);
        EXPECT_TRUE(same_samples(decode_image_bytes("a.pnm", plain), from_binary));
      }
}

// Said in PNM's terms, not stb_image's (which names the last format it
// tried: "not BMP").
TEST(PnmBinary, HeaderProblemsAreSaidAsPnms) {
  for (const auto& [header, says] : std::vector<std::pair<std::string, std::string>>{
           {"P6\n20000x20000\n255\n\x01\x02\x03", "corrupt PNM (its header needs the width, height and maximum as numbers)"},
           {"P5 2 1 70000\n\x01\x02\x03\x04", "corrupt PNM (maximum value 70000)"},
           {"P5 2 1", "truncated PNM (within its header)"}}) {
    SCOPED_TRACE(header);
    const Bytes file = text(header);  // clang, as C++17, lets no lambda capture a structured binding
    EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.pnm", file); }), "a.pnm: " + says);
  }
}

TEST(PnmBinary, PinnedValuesAndAZeroMaximum) {
  Bytes p5 = text("P5\n4 1\n100\n");
  p5.insert(p5.end(), {0, 50, 100, 200});
  EXPECT_EQ(decode_image_bytes("a.pgm", p5).data, (Bytes{0, 127, 255, 255}));
  Bytes wide = text("P5 2 1 1000\n");
  wide.insert(wide.end(), {0x03, 0xe7, 0x07, 0xd0});  // 999, 2000
  const Image img = decode_image_bytes("a.pgm", wide);
  ASSERT_EQ(img.depth, Depth::U16);
  EXPECT_EQ(img.samples<std::uint16_t>()[0], 999);
  EXPECT_EQ(img.samples<std::uint16_t>()[1], 1000);
  EXPECT_EQ(error_of<InputError>([] { decode_image_bytes("a.pgm", text("P5\n2 1\n0\n\x01\x02")); }),
            "a.pgm: corrupt PNM (maximum value 0)");
}

}  // namespace
}  // namespace gpuimg::test
