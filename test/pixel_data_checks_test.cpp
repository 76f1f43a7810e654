// Pixel data a decoder would fill in silently where the file leaves it out
// (issue 23): a GIF frame whose LZW data ends before its last pixel, a
// palette index past the palette. Each is refused with one line; whole
// files of the same kind decode to exactly their pixels.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec.hpp"
#include "crafted_files.hpp"
#include "error_text.hpp"
#include "temp_dir.hpp"

namespace gpuimg {
namespace {

using namespace test;

// `n` indices of a 4-colour table, cycling.
Bytes cycling_indices(std::size_t n) {
  Bytes out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(i * 7 % 5 % 4);
  return out;
}

// The RGBA pixels stb_image gives for a screen holding `frame` of
// `indices`: what lies outside the frame is the background colour, or
// transparent black where the background is colour 0.
Bytes gif_pixels(int screen_w, int screen_h, int background, const GifFrame& frame, const Bytes& indices) {
  Bytes out;
  std::size_t next = 0;
  for (int y = 0; y < screen_h; ++y)
    for (int x = 0; x < screen_w; ++x) {
      const bool inside =
          x >= frame.left && x < frame.left + frame.width && y >= frame.top && y < frame.top + frame.height;
      const Bytes around = background == 0 ? Bytes{0, 0, 0, 0} : kGifColours[static_cast<std::size_t>(background)];
      const Bytes& c = inside ? kGifColours[indices[next++]] : around;
      out.insert(out.end(), c.begin(), c.end());
    }
  return out;
}

Bytes first(const Bytes& b, std::size_t n) { return Bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)); }

// stb_image leaves what a frame's LZW data never reaches as the background
// (transparent black here): data that ends, by its end code or its last
// sub-block, before the frame's last pixel is refused. 100x100 takes the
// codes through every width to 12 bits and a clear code.
TEST(PixelDataChecks, GifFrameWhoseLzwDataEndsEarlyIsRefused) {
  TempDir dir;
  for (const std::uint16_t side : {std::uint16_t{5}, std::uint16_t{100}}) {
    const std::size_t pixels = std::size_t{side} * side;
    const Bytes indices = cycling_indices(pixels);
    GifFrame frame{0, 0, side, side, gif_lzw(indices, 2)};
    save(dir.file("whole.gif"), gif_file(side, side, 0, frame));
    const Image img = read_image(dir.file("whole.gif"));
    ASSERT_EQ(img.width, side);
    ASSERT_EQ(img.channels, 4);
    EXPECT_EQ(img.data, gif_pixels(side, side, 0, frame, indices));

    for (const bool end_code : {true, false}) {
      frame.lzw = gif_lzw(first(indices, pixels - 1), 2, end_code);
      save(dir.file("short.gif"), gif_file(side, side, 0, frame));
      EXPECT_EQ(read_error(dir.file("short.gif")),
                dir.file("short.gif") + ": corrupt GIF (its first frame's LZW data ends after " +
                    std::to_string(pixels - 1) + " of its " + std::to_string(pixels) + " pixels)")
          << side << (end_code ? " with" : " without") << " an end code";
    }
  }
}

// A frame smaller than its screen is legal: the screen around it is the
// background colour (transparent black for colour 0, as browsers show all
// of it). Only the frame's own pixels must all be there.
TEST(PixelDataChecks, GifFrameSmallerThanItsScreenNeedsOnlyItsOwnPixels) {
  TempDir dir;
  const Bytes indices = cycling_indices(6);
  for (const std::uint8_t background : {std::uint8_t{0}, std::uint8_t{2}}) {
    GifFrame frame{1, 2, 3, 2, gif_lzw(indices, 2)};
    save(dir.file("small.gif"), gif_file(5, 4, background, frame));
    const Image img = read_image(dir.file("small.gif"));
    ASSERT_EQ(img.width, 5);
    ASSERT_EQ(img.height, 4);
    EXPECT_EQ(img.data, gif_pixels(5, 4, background, frame, indices)) << "background " << int{background};

    frame.lzw = gif_lzw(first(indices, 5), 2);
    save(dir.file("short.gif"), gif_file(5, 4, background, frame));
    EXPECT_EQ(read_error(dir.file("short.gif")),
              dir.file("short.gif") + ": corrupt GIF (its first frame's LZW data ends after 5 of its 6 pixels)");
  }
}

// Interlaced rows come in four passes; the count is the same.
TEST(PixelDataChecks, InterlacedGifFrameIsCountedWhole) {
  TempDir dir;
  const Bytes indices = cycling_indices(3 * 11);
  GifFrame frame{0, 0, 3, 11, gif_lzw(indices, 2), true};
  save(dir.file("whole.gif"), gif_file(3, 11, 0, frame));
  const Image img = read_image(dir.file("whole.gif"));
  Bytes by_pass;  // the decoded rows in the order the passes store them
  for (const int row : {0, 8, 4, 2, 6, 10, 1, 3, 5, 7, 9})
    by_pass.insert(by_pass.end(), img.data.begin() + row * 12, img.data.begin() + row * 12 + 12);
  EXPECT_EQ(by_pass, gif_pixels(3, 11, 0, frame, indices));

  frame.lzw = gif_lzw(first(indices, 3 * 11 - 3), 2);
  save(dir.file("short.gif"), gif_file(3, 11, 0, frame));
  EXPECT_EQ(read_error(dir.file("short.gif")),
            dir.file("short.gif") + ": corrupt GIF (its first frame's LZW data ends after 30 of its 33 pixels)");
}

// Three colours, as a TGA colour map stores them (BGR) and as a BMP
// palette does (BGR0), and the RGB each decodes to.
const Bytes kTgaMap = {0, 0, 255, 0, 255, 0, 255, 0, 0};
const Bytes kBmpPalette = {0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0};
const std::vector<Bytes> kRgb = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};

Bytes rgb_of(const Bytes& indices) {
  Bytes out;
  for (const std::uint8_t i : indices) out.insert(out.end(), kRgb[i].begin(), kRgb[i].end());
  return out;
}

// stb_image takes an index past a TGA's colour map as entry 0; raw and
// run-length (a repeated packet's one index, a literal packet's each).
TEST(PixelDataChecks, TgaColourIndexPastTheColourMapIsRefused) {
  TempDir dir;
  const Bytes indices = {0, 1, 2, 2, 1, 0, 1, 1};
  save(dir.file("raw.tga"), tga_mapped(4, 2, kTgaMap, indices));
  EXPECT_EQ(read_image(dir.file("raw.tga")).data, rgb_of(indices));
  const Bytes packets = {0x02, 0, 1, 2, 0x80, 2, 0x00, 1, 0x00, 0, 0x81, 1};
  save(dir.file("rle.tga"), tga_mapped(4, 2, kTgaMap, packets, true));
  EXPECT_EQ(read_image(dir.file("rle.tga")).data, rgb_of(indices));

  Bytes bad = indices;
  bad[5] = 7;
  save(dir.file("bad.tga"), tga_mapped(4, 2, kTgaMap, bad));
  const std::string problem = ": corrupt TGA (colour index 7 past the 3-entry colour map)";
  EXPECT_EQ(read_error(dir.file("bad.tga")), dir.file("bad.tga") + problem);
  for (const std::size_t at : {std::size_t{2}, std::size_t{5}, std::size_t{11}}) {
    Bytes bad_packets = packets;
    bad_packets[at] = 7;
    save(dir.file("bad_rle.tga"), tga_mapped(4, 2, kTgaMap, bad_packets, true));
    EXPECT_EQ(read_error(dir.file("bad_rle.tga")), dir.file("bad_rle.tga") + problem) << "packet byte " << at;
  }
}

// stb_image takes an index past the palette as whatever its stack held.
TEST(PixelDataChecks, BmpPaletteIndexPastThePaletteIsRefused) {
  TempDir dir;
  struct Case {
    int bpp;
    std::size_t entries;
    Bytes fitting;
    std::uint8_t bad_index;
  };
  const Bytes mixed = {0, 1, 2, 2, 1, 0, 1, 1, 0, 2};
  for (const Case& c : {Case{1, 1, Bytes(10, 0), 1}, Case{4, 3, mixed, 9}, Case{8, 3, mixed, 200}}) {
    const Bytes palette(kBmpPalette.begin(), kBmpPalette.begin() + static_cast<std::ptrdiff_t>(4 * c.entries));
    save(dir.file("ok.bmp"), bmp_indexed(5, 2, c.bpp, palette, bmp_rows(c.fitting, 5, c.bpp)));
    EXPECT_EQ(read_image(dir.file("ok.bmp")).data, rgb_of(c.fitting)) << c.bpp << " bits";

    Bytes bad = c.fitting;
    bad[8] = c.bad_index;
    save(dir.file("bad.bmp"), bmp_indexed(5, 2, c.bpp, palette, bmp_rows(bad, 5, c.bpp)));
    EXPECT_EQ(read_error(dir.file("bad.bmp")), dir.file("bad.bmp") + ": corrupt BMP (colour index " +
                                                   std::to_string(c.bad_index) + " past the " +
                                                   std::to_string(c.entries) + "-entry palette)")
        << c.bpp << " bits";
  }
}

// Run-length BMPs, which gpuimg decodes itself (stb_image refuses them):
// the pixels as OpenCV drew them, and every index a packet draws checked,
// and only those (a literal run's padding, an odd run's unused nibble are
// not pixels).
TEST(PixelDataChecks, RunLengthBmpPaletteIndexPastThePaletteIsRefused) {
  TempDir dir;
  const Bytes indices = {0, 1, 2, 0, 1, 2, 1, 2};
  // The bottom row runs (RLE4: one of an odd length), the top a literal run
  // of 3 (padded) and a run of 1.
  const Bytes rle8 = {1, 1, 1, 2, 1, 1, 1, 2, 0, 0, 0, 3, 0, 1, 2, 0xee, 1, 0, 0, 0, 0, 1};
  const Bytes rle4 = {1, 0x1f, 3, 0x21, 0, 0, 0, 3, 0x01, 0x2f, 1, 0x0f, 0, 0, 0, 1};
  for (const auto& [bpp, data] : {std::pair{8, rle8}, {4, rle4}}) {
    const int compression = bpp == 8 ? 1 : 2;
    save(dir.file("ok.bmp"), bmp_indexed(4, 2, bpp, kBmpPalette, data, compression));
    EXPECT_EQ(read_image(dir.file("ok.bmp")).data, rgb_of(indices)) << bpp << " bits";
    const std::vector<std::pair<std::size_t, std::uint8_t>> damage =
        bpp == 8 ? std::vector<std::pair<std::size_t, std::uint8_t>>{{1, 9}, {14, 9}}
                 : std::vector<std::pair<std::size_t, std::uint8_t>>{{1, 0x9f}, {3, 0x29}, {8, 0x09}};
    for (const auto& [at, value] : damage) {
      Bytes bad = data;
      bad[at] = value;
      save(dir.file("bad.bmp"), bmp_indexed(4, 2, bpp, kBmpPalette, bad, compression));
      EXPECT_EQ(read_error(dir.file("bad.bmp")),
                dir.file("bad.bmp") + ": corrupt BMP (colour index 9 past the 3-entry palette)")
          << bpp << " bits, byte " << at;
    }
  }
}

// A run past the row's end draws only the pixels inside it (two bytes may
// ask for 255), and the pixels the codes skip are entry 0, which a file
// without a palette does not have.
TEST(PixelDataChecks, RunLengthBmpRunsStopAtTheEdgeAndSkippedPixelsNeedEntryZero) {
  TempDir dir;
  const Bytes rle8 = {255, 1, 0, 0, 2, 2, 0, 1};  // the bottom row one long run, the top two pixels and a skip
  save(dir.file("long.bmp"), bmp_indexed(4, 2, 8, kBmpPalette, rle8, 1));
  EXPECT_EQ(read_image(dir.file("long.bmp")).data, rgb_of({2, 2, 0, 0, 1, 1, 1, 1}));
  save(dir.file("bare.bmp"), bmp_indexed(4, 2, 8, {}, {0, 2, 5, 7, 0, 1}, 1));
  EXPECT_EQ(read_error(dir.file("bare.bmp")),
            dir.file("bare.bmp") + ": corrupt BMP (colour index 0 past the 0-entry palette)");
}

// Cut before its end-of-bitmap code: refused, not drawn in entry 0.
TEST(PixelDataChecks, RunLengthBmpEndingEarlyIsRefused) {
  TempDir dir;
  const Bytes rle8 = {1, 1, 1, 2, 1, 1, 1, 2, 0, 0, 0, 3, 0, 1, 2, 0xee, 1, 0, 0, 0};
  save(dir.file("cut.bmp"), bmp_indexed(4, 2, 8, kBmpPalette, rle8, 1));
  EXPECT_EQ(read_error(dir.file("cut.bmp")),
            dir.file("cut.bmp") + ": truncated BMP (its run-length data ends before its end-of-bitmap code)");
}

}  // namespace
}  // namespace gpuimg
