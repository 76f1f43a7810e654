#pragma once
// Pictures with anti-aliased edges, for --ignore-aa's tests: dark discs and
// a tilted bar on a light background, each pixel the share of 8x8 sample
// points inside a shape (the way a rasteriser's coverage anti-aliasing
// blends an edge), all moved right by `shift` pixels.
#include <cmath>
#include <cstdint>

#include "image.hpp"

namespace gpuimg::test {

inline bool inside_shape(double x, double y) {
  const double discs[][3] = {{20, 20, 9.3}, {52.5, 24, 12.7}, {30, 48, 6.1}};
  for (const auto& d : discs)
    if ((x - d[0]) * (x - d[0]) + (y - d[1]) * (y - d[1]) <= d[2] * d[2]) return true;
  // A bar 4 pixels wide, tilted by about 17 degrees.
  const double across = (y - 60) * 0.956 - (x - 10) * 0.292;
  return std::abs(across) <= 2 && x >= 10 && x <= 70;
}

// Sample `c` of a pixel `cover` (0 to 1) inside a shape: the ink over the
// background, per channel so that R, G and B differ; alpha opaque.
inline int shade(int channels, int c, Depth depth, double cover) {
  const double m = max_sample(depth);
  const double background[3] = {0.94, 0.92, 0.90}, ink[3] = {0.10, 0.20, 0.45};
  if (c == 3 || (channels == 2 && c == 1)) return static_cast<int>(m);
  const int colour = channels <= 2 ? 1 : c;
  return static_cast<int>(std::lround(m * (background[colour] + (ink[colour] - background[colour]) * cover)));
}

inline void set_shade(Image& img, int x, int y, double cover) {
  for (int c = 0; c < img.channels; ++c) {
    const int v = shade(img.channels, c, img.depth, cover);
    const std::size_t i = (static_cast<std::size_t>(y) * img.width + x) * img.channels + c;
    if (img.depth == Depth::U8)
      img.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
    else
      img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
  }
}

// `channels` 1 to 4, either depth.
inline Image antialiased_shapes(int width, int height, double shift, int channels, Depth depth) {
  Image img(width, height, channels, depth);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int hits = 0;
      for (int sy = 0; sy < 8; ++sy)
        for (int sx = 0; sx < 8; ++sx) hits += inside_shape(x + (sx + 0.5) / 8 - shift, y + (sy + 0.5) / 8);
      set_shade(img, x, y, hits / 64.0);
    }
  return img;
}

// `img` with a solid block of the ink, `w` x `h` pixels at (x0, y0).
inline Image with_block(Image img, int x0, int y0, int w, int h) {
  for (int y = y0; y < y0 + h; ++y)
    for (int x = x0; x < x0 + w; ++x) set_shade(img, x, y, 1);
  return img;
}

}  // namespace gpuimg::test
