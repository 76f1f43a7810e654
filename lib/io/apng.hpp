#pragma once
// Animated PNG (APNG): the chunks that make the animation, checked as
// hostile input, and frame N composed as the APNG specification draws it.
// libpng knows nothing of APNG: each frame's pixels are decoded by handing
// libpng a PNG of that frame alone (apng_compose.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "image.hpp"

namespace gpuimg {

enum class ApngDispose : std::uint8_t { none, background, previous };
enum class ApngBlend : std::uint8_t { source, over };

// Where a chunk's data lies in the file.
struct ChunkSpan {
  std::size_t at;
  std::size_t size;
};

// One fcTL and its data: the IDAT chunks' data for a frame whose fcTL
// precedes IDAT, else its fdAT chunks' data past their sequence numbers.
struct ApngFrame {
  std::uint32_t width, height, x, y;
  ApngDispose dispose;
  ApngBlend blend;
  std::vector<ChunkSpan> data;
};

struct ApngLayout {
  ChunkSpan ihdr;
  std::optional<ChunkSpan> plte, trns;
  std::vector<ApngFrame> frames;  // the animation's, in order
  bool default_in_animation;      // an fcTL precedes IDAT
  // gpuimg's frames: the default image counts as one of its own where it
  // is not the animation's first (frame 0, as Pillow counts).
  std::size_t image_count() const { return frames.size() + (default_in_animation ? 0 : 1); }
};

// nullopt for a PNG with no acTL before its first IDAT (no animation: its
// chunks are left to png_codec.cpp's checks). For an APNG, every chunk to
// IEND is walked and checked: lengths within the file, CRCs, acTL's frame
// count against the fcTL chunks, sequence numbers 0, 1, 2... across fcTL
// and fdAT, each frame inside the canvas and holding data, the default
// image's fcTL covering the canvas. Throws CodecFailure naming the problem.
std::optional<ApngLayout> read_apng_layout(const std::vector<std::uint8_t>& file);

// gpuimg's frame `index` (1 to image_count() - 1; frame 0, the default
// image, is decode_png's): the canvas, started fully transparent black,
// after the animation's frames up to it are drawn by their blend and
// disposal; gray+alpha for a gray PNG, else RGBA; 16-bit where the PNG is.
// The canvas and the frames' areas summed are held to `max_pixels`.
Image decode_apng_frame(const std::vector<std::uint8_t>& file, const ApngLayout& layout, std::size_t index,
                        std::uint64_t max_pixels);

}  // namespace gpuimg
