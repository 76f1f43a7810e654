#pragma once
// Resolution (metadata.hpp) as each format stores it. PNG and JPEG store
// whole numbers: a number is rounded half up and held to the field's range
// (at least 1). PNG and BMP know only metres: inches convert at 0.0254 m,
// so 300 dpi is written as 11811 pixels per metre, and read back as 300.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "metadata.hpp"

namespace gpuimg {

constexpr double kMetresPerInch = 0.0254;

// A field's whole number: unit 0 is aspect, then each format's own codes.
struct StoredDensity {
  int unit = 0;
  std::uint32_t x = 1, y = 1;

  // Square pixels of no stated size, once rounded: written as none.
  bool says_something() const { return unit != 0 || x != y; }
};

inline std::uint32_t whole_density(double v, std::uint32_t most) {
  const double r = std::floor(v + 0.5);
  return r >= most ? most : r <= 1 ? 1 : static_cast<std::uint32_t>(r);
}

// An aspect's two terms as whole numbers of the same ratio: as they are
// where they are whole and in range, else the smaller made 1000, or the
// larger `most` where that would pass it.
inline StoredDensity aspect_density(double x, double y, std::uint32_t most) {
  if (x == std::floor(x) && y == std::floor(y) && x >= 1 && y >= 1 && x <= most && y <= most)
    return {0, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)};
  const double scale = std::min(1000 / std::min(x, y), most / std::max(x, y));
  return {0, whole_density(x * scale, most), whole_density(y * scale, most)};
}

// pHYs, and BMP's pixels per metre: unit 1 is the metre; x and y below 2^31.
inline StoredDensity png_density(const Resolution& r) {
  using U = Resolution::Unit;
  constexpr std::uint32_t most = 0x7fffffff;
  if (r.unit == U::aspect) return aspect_density(r.x, r.y, most);
  const auto per_metre = [&](double v) { return r.unit == U::inch ? v / kMetresPerInch : v * 100; };
  return {1, whole_density(per_metre(r.x), most), whole_density(per_metre(r.y), most)};
}

// Pixels per metre as pixels per inch: a whole number of them where it
// gives this number of pixels per metre back (so 11811 is 300 dpi, not
// 299.9994, in a TIFF too).
inline double dpi_of_ppm(std::uint32_t ppm) {
  const double dpi = ppm * kMetresPerInch, whole = std::floor(dpi + 0.5);
  return whole >= 1 && whole_density(whole / kMetresPerInch, 0x7fffffff) == ppm ? whole : dpi;
}

inline Resolution png_resolution(const StoredDensity& d) {
  if (d.unit == 0) return {Resolution::Unit::aspect, double(d.x), double(d.y)};
  return {Resolution::Unit::inch, dpi_of_ppm(d.x), dpi_of_ppm(d.y)};
}

// JFIF: unit 1 is the inch, 2 the centimetre; 16-bit densities.
constexpr std::uint32_t kJfifMost = 0xffff;

inline StoredDensity jfif_density(const Resolution& r) {
  if (r.unit == Resolution::Unit::aspect) return aspect_density(r.x, r.y, kJfifMost);
  return {static_cast<int>(r.unit), whole_density(r.x, kJfifMost), whole_density(r.y, kJfifMost)};
}

inline Resolution jfif_resolution(const StoredDensity& d) {
  return {static_cast<Resolution::Unit>(d.unit), double(d.x), double(d.y)};
}

}  // namespace gpuimg
