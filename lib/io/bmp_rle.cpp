// Run-length BMPs (RLE8 and RLE4), which stb_image refuses: decoded as
// OpenCV draws them. Every index drawn is checked against the palette as
// stb_image reads BMP palettes (pixel_data_checks.hpp); pixels the codes
// skip (end of line, delta, end of bitmap) are entry 0, as OpenCV draws
// them, so entry 0 is checked too; a file that ends before its
// end-of-bitmap code is refused. A run draws only the pixels inside the
// image: two bytes may ask for 255, and a file of runs past the edge would
// otherwise cost time out of all proportion to its pixels.
#include <algorithm>
#include <string>

#include "backends.hpp"
#include "pixel_data_checks.hpp"

namespace gpuimg {
namespace {

struct RleLayout {
  std::uint64_t width = 0, height = 0;
  unsigned bpp = 0;
  std::size_t data_at = 0, palette_at = 0;
  std::int64_t entries = 0;
};

RleLayout layout_of(const Bytes& b) {
  if (!detail::has(b, 0, 54)) throw CodecFailure("truncated BMP");
  RleLayout l;
  const auto width = static_cast<std::int32_t>(detail::read_uint(b, 18, 4, false));
  const auto height = static_cast<std::int32_t>(detail::read_uint(b, 22, 4, false));
  // A run-length bitmap is stored bottom up: a negative height is invalid.
  if (width <= 0 || height <= 0) throw CodecFailure("corrupt BMP (run-length bitmap of " + std::to_string(width) + "x" +
                                                    std::to_string(height) + " pixels)");
  l.width = static_cast<std::uint64_t>(width);
  l.height = static_cast<std::uint64_t>(height);
  l.bpp = static_cast<unsigned>(detail::read_uint(b, 28, 2, false));
  l.data_at = static_cast<std::size_t>(detail::read_uint(b, 10, 4, false));
  l.palette_at = 14 + static_cast<std::size_t>(detail::read_uint(b, 14, 4, false));
  l.entries = std::min<std::int64_t>(bmp_palette_entries(b, false), std::int64_t{1} << l.bpp);
  return l;
}

}  // namespace

bool is_run_length_bmp(const Bytes& b) {
  if (!detail::has(b, 14, 20) || detail::read_uint(b, 14, 4, false) < 40) return false;
  const std::uint64_t compression = detail::read_uint(b, 30, 4, false);
  const std::uint64_t bpp = detail::read_uint(b, 28, 2, false);
  return (compression == 1 && bpp == 8) || (compression == 2 && bpp == 4);
}

ImageShape bmp_rle_shape(const Bytes& b) {
  const RleLayout l = layout_of(b);
  return ImageShape{l.width, l.height, 3, Depth::U8};
}

Image decode_bmp_rle(const Bytes& b, std::uint64_t max_pixels) {
  const RleLayout l = layout_of(b);
  check_pixel_limit({l.width, l.height}, max_pixels);
  std::vector<std::uint8_t> indices(l.width * l.height, 0);
  std::size_t at = l.data_at;
  const auto next = [&] {
    if (at >= b.size()) throw CodecFailure("truncated BMP (its run-length data ends before its end-of-bitmap code)");
    return b[at++];
  };
  std::uint64_t x = 0, y = 0;  // y counts rows from the bottom, as stored
  const auto draw = [&](unsigned index) {
    check_palette_index(index, l.entries, "BMP", "palette");
    if (x < l.width && y < l.height) indices[(l.height - 1 - y) * l.width + x] = static_cast<std::uint8_t>(index);
    ++x;
  };
  for (;;) {
    const unsigned count = next(), value = next();
    if (count > 0) {
      // RLE4 alternates the byte's two indices, RLE8 repeats its one.
      const unsigned first = l.bpp == 8 ? value : value >> 4, second = l.bpp == 8 ? value : value & 15;
      check_palette_index(first, l.entries, "BMP", "palette");
      if (count > 1) check_palette_index(second, l.entries, "BMP", "palette");
      const std::uint64_t inside = y < l.height && x < l.width ? std::min<std::uint64_t>(count, l.width - x) : 0;
      std::uint8_t* row = indices.data() + (l.height - 1 - std::min(y, l.height - 1)) * l.width;
      for (std::uint64_t i = 0; i < inside; ++i) row[x + i] = static_cast<std::uint8_t>(i % 2 ? second : first);
      x += count;
    } else if (value == 0) {
      x = 0;
      ++y;
    } else if (value == 1) {
      break;
    } else if (value == 2) {
      x += next();
      y += next();
    } else {
      unsigned byte = 0;
      for (unsigned i = 0; i < value; ++i) {
        if (l.bpp == 8 || i % 2 == 0) byte = next();
        draw(l.bpp == 8 ? byte : i % 2 ? byte & 15 : byte >> 4);
      }
      const unsigned stored = l.bpp == 8 ? value : (value + 1) / 2;
      if (stored % 2) next();  // literal runs are padded to 16 bits
    }
  }
  check_palette_index(0, l.entries, "BMP", "palette");
  Image img(static_cast<int>(l.width), static_cast<int>(l.height), 3, Depth::U8);
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const std::size_t entry = l.palette_at + 4 * std::size_t{indices[i]};
    if (!detail::has(b, entry, 4)) throw CodecFailure("truncated BMP (in its palette)");
    // Stored blue, green, red.
    img.data[3 * i] = b[entry + 2];
    img.data[3 * i + 1] = b[entry + 1];
    img.data[3 * i + 2] = b[entry];
  }
  return img;
}

}  // namespace gpuimg
