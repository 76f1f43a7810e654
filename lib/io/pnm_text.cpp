// Plain-text PNM (P1 bitmap, P2 gray, P3 RGB) and binary bitmaps (P4),
// which stb_image refuses, read with OpenCV's PxM rules; and the rule for
// the stated maximum, which binary P5 and P6 (read by stb_image) share.
// Numbers are read as the probe reads the header (header_dims.hpp):
// whitespace and '#' comments before each, the byte after its digits
// consumed. P1 and P4 give 8-bit gray, a set bit black (0) and a clear one
// white (255); P2 and P3 samples go through apply_pnm_maximum.
#include <algorithm>
#include <string>

#include "backends.hpp"

namespace gpuimg {
namespace {

struct Reader {
  const Bytes& b;
  std::size_t at = 2;

  [[noreturn]] static void truncated() { throw CodecFailure("truncated PNM"); }

  void skip_space_and_comments() {
    while (at < b.size() && (b[at] == '#' || b[at] == ' ' || (b[at] >= '\t' && b[at] <= '\r'))) {
      if (b[at] == '#')
        while (at < b.size() && b[at] != '\n' && b[at] != '\r') ++at;
      ++at;
    }
  }

  std::uint64_t number() {
    skip_space_and_comments();
    const std::size_t start = at;
    std::uint64_t v = 0;
    constexpr std::uint64_t saturated = std::uint64_t{1} << 40;
    for (; at < b.size() && b[at] >= '0' && b[at] <= '9'; ++at) v = v >= saturated ? saturated : v * 10 + (b[at] - '0');
    if (at == start) {
      if (at >= b.size()) truncated();
      throw CodecFailure("corrupt PNM (no number at byte " + std::to_string(at) + ")");
    }
    ++at;  // the byte after the digits, whatever it is
    return v;
  }

  // P1's pixels are single digits, with or without space between them.
  unsigned bit_digit() {
    skip_space_and_comments();
    if (at >= b.size()) truncated();
    const std::uint8_t c = b[at++];
    if (c != '0' && c != '1') throw CodecFailure("corrupt PNM (a P1 pixel must be 0 or 1)");
    return c - '0';
  }
};

// The numbers before the samples, each refused where the decoder refuses
// it, before any pixel memory is allocated.
struct Header {
  std::uint64_t width, height, max;
};

Header read_header(Reader& r, char kind, std::uint64_t max_pixels) {
  const std::uint64_t width = r.number(), height = r.number();
  check_pixel_limit({width, height}, max_pixels);
  if (width == 0 || height == 0) throw CodecFailure("image has no pixels (width or height 0)");
  const std::uint64_t max = kind == '1' || kind == '4' ? 1 : r.number();
  if (max == 0 || max > 65535) throw CodecFailure("corrupt PNM (maximum value " + std::to_string(max) + ")");
  return {width, height, max};
}

int channels_of(char kind) { return kind == '3' ? 3 : 1; }

}  // namespace

bool is_pnm_text_or_bitmap(const Bytes& file) { return file.size() >= 2 && file[1] >= '1' && file[1] <= '4'; }

std::uint64_t binary_pnm_maximum(const Bytes& file) {
  const auto numbers = detail::pnm_header_numbers(file);
  if (!numbers) throw CodecFailure("corrupt PNM (a header number past 2^31 - 1)");
  // Said here in PNM's terms: stb_image would name the last of the
  // formats it tried ("not BMP").
  for (const std::uint64_t n : *numbers) {
    if (n == detail::kPnmEnded) throw CodecFailure("truncated PNM (within its header)");
    if (n == detail::kPnmNoNumber)
      throw CodecFailure("corrupt PNM (its header needs the width, height and maximum as numbers)");
  }
  if ((*numbers)[2] == 0 || (*numbers)[2] > 65535)
    throw CodecFailure("corrupt PNM (maximum value " + std::to_string((*numbers)[2]) + ")");
  return (*numbers)[2];
}

std::optional<ImageShape> pnm_decoded_shape(const Bytes& file) {
  if (!is_pnm_text_or_bitmap(file)) {
    binary_pnm_maximum(file);
    return stb_shape(file);
  }
  const char kind = static_cast<char>(file[1]);  // is_pnm_text_or_bitmap saw it there
  Reader r{file};
  const Header h = read_header(r, kind, UINT64_MAX);
  return ImageShape{h.width, h.height, channels_of(kind), h.max > 255 ? Depth::U16 : Depth::U8};
}

Image decode_pnm_text(const Bytes& file, std::uint64_t max_pixels) {
  Reader r{file};
  const char kind = static_cast<char>(file[1]);
  const Header h = read_header(r, kind, max_pixels);
  const std::uint64_t width = h.width, height = h.height, max = h.max;
  const int channels = channels_of(kind);
  const bool wide = max > 255;
  // A bitmap's rows must all be there before its pixels take memory.
  const std::size_t row_bytes = (width + 7) / 8;
  if (kind == '4' && r.at + row_bytes * height > file.size()) Reader::truncated();
  Image img(static_cast<int>(width), static_cast<int>(height), channels, wide ? Depth::U16 : Depth::U8);
  const std::size_t samples = img.pixel_count() * static_cast<std::size_t>(channels);
  if (kind == '4') {
    for (std::size_t y = 0; y < height; ++y)
      for (std::size_t x = 0; x < width; ++x) {
        const unsigned bit = file[r.at + y * row_bytes + x / 8] >> (7 - x % 8) & 1;
        img.data[y * width + x] = bit ? 0 : 255;
      }
    return img;
  }
  if (kind == '1') {
    for (std::size_t i = 0; i < samples; ++i) img.data[i] = r.bit_digit() ? 0 : 255;
    return img;
  }
  for (std::size_t i = 0; i < samples; ++i) {
    const std::uint64_t v = std::min(r.number(), max);  // held by the image's depth
    if (wide)
      img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
    else
      img.data[i] = static_cast<std::uint8_t>(v);
  }
  apply_pnm_maximum(img, max);
  return img;
}

void apply_pnm_maximum(Image& img, std::uint64_t max) {
  if (max == 0) throw CodecFailure("corrupt PNM (maximum value 0)");
  if (img.depth == Depth::U16) {
    std::uint16_t* v = img.samples<std::uint16_t>();
    for (std::size_t i = 0, n = img.data.size() / 2; i < n; ++i) v[i] = static_cast<std::uint16_t>(std::min<std::uint64_t>(v[i], max));
    return;
  }
  if (max >= 255) return;
  for (std::uint8_t& v : img.data) v = static_cast<std::uint8_t>(std::min<std::uint64_t>(v, max) * 255 / max);
}

}  // namespace gpuimg
