#include "pixel_data_checks.hpp"

#include <algorithm>
#include <cstdlib>
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

void check_palette_index(unsigned index, std::int64_t entries, const char* format, const char* table) {
  if (index < entries) return;
  throw CodecFailure(std::string("corrupt ") + format + " (colour index " + std::to_string(index) + " past the " +
                     std::to_string(entries) + "-entry " + table + ")");
}

// The entries of a BMP's palette as stb_image reads them: it ignores
// biClrUsed and takes what fits between the headers and the pixel data (a
// quirk of its own makes that 4 entries fewer than there are for the
// oldest, 12-byte header).
std::int64_t bmp_palette_entries(const Bytes& b, bool core_header) {
  const auto offset = static_cast<std::int64_t>(detail::read_uint(b, 10, 4, false));
  const auto header = static_cast<std::int64_t>(detail::read_uint(b, 14, 4, false));
  return std::max<std::int64_t>(0, core_header ? (offset - 38) / 3 : (offset - 14 - header) >> 2);
}

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

// stb_image's TGA reader: it skips the image ID, then as many bytes as the
// colour map's first-entry field says, then reads the map and the indices,
// 8 or 16 bits each.
void check_tga_colour_indices(const Bytes& file) {
  if (!detail::has(file, 0, 18) || file[1] != 1 || (file[2] != 1 && file[2] != 9)) return;
  const auto field = [&](std::size_t at) { return static_cast<unsigned>(detail::read_uint(file, at, 2, false)); };
  const unsigned entries = field(5), entry_bits = file[7], index_bits = file[16];
  if (entries == 0 || (index_bits != 8 && index_bits != 16)) return;  // refused by stb
  if (entries >= (1u << index_bits)) return;  // no index can be past it
  const std::size_t entry_bytes = entry_bits == 15 || entry_bits == 16 ? 2 : entry_bits / 8;
  Cursor c{file, 18};
  c.skip(std::size_t{file[0]} + field(3) + entries * entry_bytes);
  const bool rle = file[2] == 9;
  const std::uint64_t pixels = std::uint64_t{field(12)} * field(14);
  unsigned run = 0;
  bool repeating = false;
  for (std::uint64_t i = 0; i < pixels; ++i) {
    if (rle && run == 0) {
      const int packet = c.get8();
      run = 1 + (packet & 127);
      repeating = packet >> 7;
    } else if (rle && repeating) {
      --run;
      continue;
    }
    if (rle) --run;
    const unsigned index = index_bits == 8 ? static_cast<unsigned>(c.get8()) : c.get16le();
    if (c.overran) return;
    check_palette_index(index, entries, "TGA", "colour map");
  }
}

// The headers as stb_image reads them; the pixel data from bfOffBits, each
// row padded to 4 bytes, the leftmost pixel in the high bits. Run-length
// files stb_image refuses whole.
void check_bmp_palette_indices(const Bytes& file) {
  if (!detail::has(file, 0, 34)) return;
  const bool core = detail::read_uint(file, 14, 4, false) == 12;
  const unsigned bpp = static_cast<unsigned>(detail::read_uint(file, core ? 24 : 28, 2, false));
  const std::uint64_t compression = core ? 0 : detail::read_uint(file, 30, 4, false);
  if (bpp != 1 && bpp != 4 && bpp != 8) return;
  const std::int64_t entries = bmp_palette_entries(file, core);
  if (compression != 0 || entries >= (std::int64_t{1} << bpp)) return;  // no index can be past it
  Cursor c{file, 0};
  c.skip(detail::read_uint(file, 10, 4, false));
  const auto side = [&](std::size_t at) {
    const std::uint64_t v = detail::read_uint(file, at, core ? 2 : 4, false);
    return core ? v : static_cast<std::uint64_t>(std::abs(static_cast<std::int64_t>(static_cast<std::int32_t>(v))));
  };
  const std::uint64_t width = side(18), height = side(core ? 20 : 22);
  // No pixels, nothing to check: and rows of 0 bytes would not bound the
  // walk by the file's size (a 190-byte file claiming 29 million of them).
  if (width == 0) return;
  const std::uint64_t row_bytes = (width * bpp + 31) / 32 * 4;
  for (std::uint64_t y = 0; y < height; ++y) {
    const std::size_t row = c.pos;
    if (!detail::has(file, row, row_bytes)) return;
    for (std::uint64_t x = 0; x < width; ++x) {
      const std::uint64_t bit = x * bpp;
      const unsigned index = file[row + bit / 8] >> (8 - bpp - bit % 8) & ((1u << bpp) - 1);
      check_palette_index(index, entries, "BMP", "palette");
    }
    c.skip(row_bytes);
  }
}

}  // namespace gpuimg
