#include "pixel_data_checks.hpp"

#include <algorithm>
#include <string>

#include "backends.hpp"

namespace gpuimg {
namespace {

// Reads as stb_image reads, a byte at a time; past the end it gives 0, as
// stb does, and remembers it.
struct Cursor {
  const Bytes& bytes;
  std::size_t pos;
  bool overran = false;

  int get8() {
    if (pos < bytes.size()) return bytes[pos++];
    overran = true;
    return 0;
  }
  unsigned get16le() {
    const unsigned low = static_cast<unsigned>(get8());
    return low | static_cast<unsigned>(get8()) << 8;
  }
  void skip(std::size_t n) {
    if (n > bytes.size() - pos) overran = true;
    pos += std::min(n, bytes.size() - pos);
  }
};

// stb_image's LZW decoder (stbi__process_gif_raster), counting the pixels
// its codes yield instead of drawing them: each new table entry is one
// pixel longer than the code before it. Where stb would refuse the data
// itself (no clear code first, a code not yet in the table, a minimum code
// size over 12), the walk stops and leaves the refusal to stb. True when
// the data ran past the file's end.
bool gif_lzw_pixels(Cursor& c, std::uint64_t needed, std::uint64_t& pixels) {
  constexpr int kTableSize = 8192;  // stb's, grown past 4096 entries until a clear code
  const int min_size = c.get8();
  if (min_size > 12) return c.overran;
  const int clear = 1 << min_size;
  std::vector<std::uint32_t> length(kTableSize + 1, 1);
  int size = min_size + 1, mask = (1 << size) - 1, avail = clear + 2, old = -1, block_left = 0, held = 0;
  bool cleared = false;
  std::uint32_t bits = 0;
  while (pixels < needed) {
    if (held < size) {
      if (block_left == 0 && (block_left = c.get8()) == 0) break;
      --block_left;
      bits |= static_cast<std::uint32_t>(c.get8()) << held;
      held += 8;
      if (c.overran) return true;
      continue;
    }
    const int code = static_cast<int>(bits) & mask;
    bits >>= size;
    held -= size;
    if (code == clear) {
      size = min_size + 1;
      mask = (1 << size) - 1;
      avail = clear + 2;
      old = -1;
      cleared = true;
      continue;
    }
    if (code == clear + 1) break;
    if (code > avail || !cleared || (old < 0 && code == avail)) return false;
    if (old >= 0) {
      if (avail == kTableSize) return false;
      length[static_cast<std::size_t>(avail++)] = length[static_cast<std::size_t>(old)] + 1;
    }
    pixels += length[static_cast<std::size_t>(code)];
    if ((avail & mask) == 0 && avail <= 0x0fff) mask = (1 << ++size) - 1;
    old = code;
  }
  return c.overran;
}

[[noreturn]] void truncated(const char* format) { throw CodecFailure(std::string("truncated ") + format); }

}  // namespace

// The blocks before the first image as stb_image's stbi__gif_load_next
// reads them, extensions skipped (a graphic control block whose length is
// not 4 included, which stb skips by that length alone).
void check_gif_first_frame(const Bytes& file) {
  Cursor c{file, 6};
  const unsigned screen_w = c.get16le(), screen_h = c.get16le();
  const int flags = c.get8();
  c.skip(2);  // background colour, aspect ratio
  if (flags & 0x80) c.skip(3 * (std::size_t{2} << (flags & 7)));
  for (;;) {
    const int tag = c.get8();
    if (c.overran) truncated("GIF");
    if (tag == 0x21) {
      if (c.get8() == 0xf9) {
        const int len = c.get8();
        c.skip(static_cast<std::size_t>(len));
        if (len != 4) continue;
      }
      for (int len; (len = c.get8()) != 0;) c.skip(static_cast<std::size_t>(len));
      continue;
    }
    if (tag != 0x2c) return;  // the trailer before any image, or a block stb refuses
    const unsigned x = c.get16le(), y = c.get16le(), w = c.get16le(), h = c.get16le();
    const int local = c.get8();
    if (x + w > screen_w || y + h > screen_h || !((local | flags) & 0x80)) return;  // refused by stb
    if (local & 0x80) c.skip(3 * (std::size_t{2} << (local & 7)));
    const std::uint64_t needed = std::uint64_t{w} * h;
    std::uint64_t pixels = 0;
    if (gif_lzw_pixels(c, needed, pixels)) truncated("GIF");
    if (pixels >= needed) return;
    throw CodecFailure("corrupt GIF (its first frame's LZW data ends after " + std::to_string(pixels) + " of its " +
                       std::to_string(needed) + " pixels)");
  }
}

}  // namespace gpuimg
