// Gray BMPs, as OpenCV writes and reads them: written as 8-bit files whose
// palette is the 256 grays (stb_image_write writes 24-bit ones alone), and
// read back as gray wherever every palette entry the decoder reads is a
// gray, so a gray image survives a round trip as gray.
#include <algorithm>

#include "backends.hpp"
#include "pixel_data_checks.hpp"

namespace gpuimg {
namespace {

void put_le(Bytes& b, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

Bytes encode_gray_bmp(const Image& img) {
  const std::size_t width = static_cast<std::size_t>(img.width), height = static_cast<std::size_t>(img.height);
  const std::size_t row_bytes = (width + 3) / 4 * 4;
  const std::size_t offset = 14 + 40 + 256 * 4;
  if (row_bytes * height > 0xffffffffu - offset) throw CodecFailure("BMP holds at most 4 GiB of pixels");
  Bytes b = {'B', 'M'};
  put_le(b, offset + row_bytes * height, 4);
  put_le(b, 0, 4);
  put_le(b, offset, 4);
  for (const std::uint64_t v : {std::uint64_t{40}, std::uint64_t{width}, std::uint64_t{height}}) put_le(b, v, 4);
  put_le(b, 1, 2);  // planes
  put_le(b, 8, 2);  // bits a pixel
  for (const std::uint64_t v : {std::uint64_t{0}, std::uint64_t{row_bytes * height}, std::uint64_t{2835},
                                std::uint64_t{2835}, std::uint64_t{256}, std::uint64_t{0}})
    put_le(b, v, 4);  // uncompressed, its size, 72 dpi, 256 colours
  for (int v = 0; v < 256; ++v) b.insert(b.end(), {std::uint8_t(v), std::uint8_t(v), std::uint8_t(v), 0});
  b.reserve(b.size() + row_bytes * height);
  for (std::size_t y = height; y-- > 0;) {  // bottom row first
    const auto* row = img.data.data() + y * width;
    b.insert(b.end(), row, row + width);
    b.resize(b.size() + row_bytes - width, 0);
  }
  return b;
}

bool has_gray_palette(const Bytes& b) {
  if (!detail::has(b, 14, 16)) return false;
  const std::uint64_t header = detail::read_uint(b, 14, 4, false);
  const bool core = header == 12;
  const std::uint64_t bpp = detail::read_uint(b, core ? 24 : 28, 2, false);
  if (bpp != 1 && bpp != 4 && bpp != 8) return false;
  const std::int64_t entries = std::min<std::int64_t>(bmp_palette_entries(b, core), std::int64_t{1} << bpp);
  const std::size_t at = 14 + static_cast<std::size_t>(header), size = core ? 3 : 4;
  if (entries <= 0 || !detail::has(b, at, static_cast<std::uint64_t>(entries) * size)) return false;
  for (std::int64_t i = 0; i < entries; ++i) {
    const std::size_t e = at + static_cast<std::size_t>(i) * size;
    if (b[e] != b[e + 1] || b[e] != b[e + 2]) return false;
  }
  return true;
}

Image gray_of(const Image& rgb) {
  Image gray(rgb.width, rgb.height, 1, Depth::U8);
  for (std::size_t i = 0; i < gray.data.size(); ++i) gray.data[i] = rgb.data[3 * i];
  return gray;
}

}  // namespace gpuimg
