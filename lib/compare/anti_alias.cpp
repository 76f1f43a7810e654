#include "anti_alias.hpp"

#include <algorithm>
#include <cstring>

#include "pixel_colour.hpp"

namespace gpuimg {
namespace {

std::int64_t brightness(const Image& img, int x, int y) {
  const Rgba p = pixel_rgba(img, static_cast<std::size_t>(y) * img.width + x);
  const std::int64_t m = max_sample(img.depth);
  return 299 * over_white(p.r, p.a, m) + 587 * over_white(p.g, p.a, m) + 114 * over_white(p.b, p.a, m);
}

// The 3x3 window around (x, y), clipped to the image, and whether it was
// clipped: pixelmatch counts the image's edge as one equal neighbour.
struct Window {
  int x0, y0, x1, y1;
  bool clipped;
  Window(const Image& img, int x, int y)
      : x0(std::max(x - 1, 0)),
        y0(std::max(y - 1, 0)),
        x1(std::min(x + 1, img.width - 1)),
        y1(std::min(y + 1, img.height - 1)),
        clipped(x0 == x || x1 == x || y0 == y || y1 == y) {}
};

bool same_samples(const Image& img, int xa, int ya, int xb, int yb) {
  const std::size_t px = img.channels * bytes_per_sample(img.depth);
  return std::memcmp(img.data.data() + (static_cast<std::size_t>(ya) * img.width + xa) * px,
                     img.data.data() + (static_cast<std::size_t>(yb) * img.width + xb) * px, px) == 0;
}

// A pixel inside a flat area: 3 or more neighbours hold exactly its samples.
bool flat(const Image& img, int x, int y) {
  const Window w(img, x, y);
  int equal = w.clipped ? 1 : 0;
  for (int ny = w.y0; ny <= w.y1; ++ny)
    for (int nx = w.x0; nx <= w.x1; ++nx)
      if ((nx != x || ny != y) && same_samples(img, x, y, nx, ny) && ++equal >= 3) return true;
  return false;
}

}  // namespace

bool anti_aliased(const Image& img, const Image& other, int x, int y) {
  const Window w(img, x, y);
  const std::int64_t centre = brightness(img, x, y);
  int equal = w.clipped ? 1 : 0;
  std::int64_t darkest = 0, brightest = 0;
  int dark_x = 0, dark_y = 0, bright_x = 0, bright_y = 0;
  for (int ny = w.y0; ny <= w.y1; ++ny)
    for (int nx = w.x0; nx <= w.x1; ++nx) {
      if (nx == x && ny == y) continue;
      const std::int64_t d = brightness(img, nx, ny) - centre;
      if (d == 0 && ++equal > 2) return false;  // part of a flat area, not a ramp
      if (d < darkest) darkest = d, dark_x = nx, dark_y = ny;
      if (d > brightest) brightest = d, bright_x = nx, bright_y = ny;
    }
  if (darkest == 0 || brightest == 0) return false;
  return (flat(img, dark_x, dark_y) && flat(other, dark_x, dark_y)) ||
         (flat(img, bright_x, bright_y) && flat(other, bright_x, bright_y));
}

}  // namespace gpuimg
