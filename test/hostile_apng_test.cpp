// Animated PNGs that break the APNG rules (lib/io/apng_layout.cpp): each
// refused with one line naming the file and the problem, whatever frame is
// asked for, and never a crash; the work of composing a frame held to
// --max-pixels.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "apng_files.hpp"
#include "error_text.hpp"
#include "frame_options.hpp"
#include "image_compare.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

// Three frames of 6x4 RGBA: the default image, then two at offsets.
std::vector<ApngFrameSpec> three_frames() {
  std::vector<ApngFrameSpec> frames(3);
  frames[0].pixels = random_image(6, 4, 4, Depth::U8, 1);
  frames[1].pixels = random_image(3, 2, 4, Depth::U8, 2);
  frames[1].x = 2;
  frames[1].blend = 1;
  frames[2].pixels = random_image(2, 4, 4, Depth::U8, 3);
  frames[2].x = 4;
  frames[2].dispose = 2;
  return frames;
}

std::string at_byte(const Bytes& file, const std::string& type, int n = 0) {
  return "byte " + std::to_string(find_chunk(file, type, n));
}

// fcTL `n`'s data with the field at `offset` (4 bytes, or 1 past 24) set to `v`.
Bytes with_fctl_field(const Bytes& file, int n, std::size_t offset, std::uint32_t v) {
  const std::size_t at = find_chunk(file, "fcTL", n);
  Bytes data(file.begin() + static_cast<std::ptrdiff_t>(at + 8), file.begin() + static_cast<std::ptrdiff_t>(at + 8 + 26));
  if (offset >= 24) {
    data[offset] = static_cast<std::uint8_t>(v);
  } else {
    for (int i = 0; i < 4; ++i) data[offset + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
  }
  return with_chunk_data(file, at, data);
}

Bytes without_chunk(const Bytes& file, std::size_t at) {
  Bytes out(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(at));
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(at + 12 + be32_at(file, at)), file.end());
  return out;
}

TEST(HostileApng, BrokenAnimationsAreRefusedNamingTheProblem) {
  const Bytes good = make_apng(three_frames());
  const std::size_t fdat = find_chunk(good, "fdAT");
  Bytes bad_crc = good;
  bad_crc[fdat + 12] ^= 1;
  const Bytes bad_actl = with_chunk_data(good, find_chunk(good, "acTL"), {0, 0, 0, 5, 0, 0, 0, 0});
  const Bytes no_frames = with_chunk_data(good, find_chunk(good, "acTL"), {0, 0, 0, 0, 0, 0, 0, 0});
  Bytes fdat_first = good;  // the first fdAT moved before the fcTL it belongs to
  {
    const std::size_t fctl = find_chunk(good, "fcTL", 1), len = 12 + be32_at(good, fdat);
    fdat_first = Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(fctl));
    fdat_first.insert(fdat_first.end(), good.begin() + static_cast<std::ptrdiff_t>(fdat),
                      good.begin() + static_cast<std::ptrdiff_t>(fdat + len));
    fdat_first.insert(fdat_first.end(), good.begin() + static_cast<std::ptrdiff_t>(fctl),
                      good.begin() + static_cast<std::ptrdiff_t>(fdat));
    fdat_first.insert(fdat_first.end(), good.begin() + static_cast<std::ptrdiff_t>(fdat + len), good.end());
  }
  const Bytes deflate_broken = with_chunk_data(good, find_chunk(good, "fdAT", 1), {0, 0, 0, 4, 0x78, 0x9c, 0xff, 0xff, 0xff});
  const std::vector<std::pair<Bytes, std::string>> cases = {
      {bad_crc, "corrupt APNG (CRC error in the fdAT chunk at " + at_byte(good, "fdAT") + ")"},
      {bad_actl, "corrupt APNG (acTL gives 5 frames; the file holds 3 fcTL chunks)"},
      {no_frames, "corrupt APNG (acTL gives 0 frames)"},
      {with_fctl_field(good, 1, 0, 7),
       "corrupt APNG (the fcTL chunk at " + at_byte(good, "fcTL", 1) + " has sequence number 7 where 1 comes next)"},
      {with_fctl_field(good, 1, 12, 4), "corrupt APNG (frame 1: 3x2 at 4,0 is not inside the 6x4 canvas)"},
      {with_fctl_field(good, 2, 16, 0xffffffffu), "corrupt APNG (frame 2: 2x4 at 4,4294967295 is not inside the 6x4 canvas)"},
      {with_fctl_field(good, 1, 4, 0), "corrupt APNG (frame 1: 0x2 at 2,0 is not inside the 6x4 canvas)"},
      {with_fctl_field(good, 0, 4, 5), "corrupt APNG (the default image's frame is 5x4 at 0,0, not the whole canvas)"},
      {with_fctl_field(good, 1, 24, 3), "corrupt APNG (frame 1: dispose_op 3)"},
      {with_fctl_field(good, 2, 25, 2), "corrupt APNG (frame 2: blend_op 2)"},
      {without_chunk(good, find_chunk(good, "fdAT", 1)), "corrupt APNG (frame 2 has no fdAT chunk)"},
      {fdat_first, "corrupt APNG (the fdAT chunk at " + at_byte(fdat_first, "fdAT") +
                       " comes before any fcTL past IDAT)"},
      {with_chunk_data(good, find_chunk(good, "fcTL", 2), Bytes(25, 0)),
       "corrupt APNG (the fcTL chunk at " + at_byte(good, "fcTL", 2) + " holds 25 bytes, not 26)"},
  };
  for (const auto& c : cases) {  // not a structured binding: C++17 lambdas cannot capture one
    SCOPED_TRACE(c.second);
    for (const int k : {kNoFrame, 0, 2})
      EXPECT_EQ(error_of<InputError>([&] { decode_image_bytes("a.png", c.first, frame(k)); }), "a.png: " + c.second);
  }
  // Data that inflates wrong is libpng's to name, as the frame's.
  const std::string inflated = error_of<InputError>([&] { decode_image_bytes("a.png", deflate_broken, frame(2)); });
  EXPECT_EQ(inflated.rfind("a.png: frame 2: corrupt PNG (", 0), 0u) << inflated;
}

// A text chunk's bad CRC is metadata's business (set aside with a
// warning), not the animation's.
TEST(HostileApng, BadCrcOutsideTheFramesLeavesThemReadable) {
  const Bytes good = make_apng(three_frames());
  Bytes file(good.begin(), good.begin() + 33);  // signature and IHDR
  put_png_chunk(file, "tEXt", {'a', 0, 'b'});
  file.back() ^= 1;
  file.insert(file.end(), good.begin() + 33, good.end());
  EXPECT_TRUE(same_samples(decode_image_bytes("a.png", good, frame(2)), decode_image_bytes("a.png", file, frame(2))));
}

// Every prefix of an APNG, and each of its bytes flipped, through every
// frame: an error or an image, never a crash (sanitizer builds check the
// reads).
TEST(HostileApng, CutOrFlippedFilesFailCleanly) {
  const Bytes good = make_apng(three_frames());
  for (std::size_t n = 8; n < good.size(); ++n) {
    const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_THROW(decode_image_bytes("a.png", cut, frame(2)), InputError) << n;
  }
  for (std::size_t i = 8; i < good.size(); ++i) {
    Bytes flipped = good;
    flipped[i] ^= 0x5a;
    for (const int k : {1, 2}) {
      try {
        const Image img = decode_image_bytes("a.png", flipped, frame(k));
        EXPECT_EQ(img.pixel_count(), 24u) << i;
      } catch (const InputError&) {
      }
    }
  }
}

// 40 frames each covering a 64x64 canvas: 4096 pixels the canvas, 163840
// decoded for the last frame.
TEST(HostileApng, WorkOfManyFramesIsHeldToMaxPixels) {
  std::vector<ApngFrameSpec> frames(40);
  for (ApngFrameSpec& f : frames) f.pixels = Image(64, 64, 4, Depth::U8);
  TempDir dir;
  save(dir.file("many.png"), make_apng(frames));
  ReadOptions opts = frame(39);
  opts.max_pixels = 100000;
  EXPECT_EQ(error_of<InputError>([&] { read_image(dir.file("many.png"), opts); }),
            dir.file("many.png") +
                ": frame 39 is drawn from 40 frames of 163840 pixels in all, over the limit of 100000 set by --max-pixels");
  opts.frame = 20;  // 21 frames, 86016 pixels
  EXPECT_EQ(read_image(dir.file("many.png"), opts).pixel_count(), 4096u);

  const RunResult r = run_binary({dir.file("many.png"), "--frame", "39", "--max-pixels", "100000", "--device", "cpu",
                                  dir.file("out.png")});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.png")));
}

}  // namespace
}  // namespace gpuimg::test
