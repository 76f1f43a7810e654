#pragma once
// Resolution (metadata.hpp) as each format stores it. PNG and JPEG store
// whole numbers: a number is rounded half up and held to the field's range
// (at least 1). PNG knows only metres: inches convert at 0.0254 m, so
// 300 dpi is written as 11811 pixels per metre and read back as
// 299.9994 dpi, which a JPEG stores as 300 again.
#include <cmath>
#include <cstdint>

#include "metadata.hpp"

namespace gpuimg {

constexpr double kMetresPerInch = 0.0254;

// A field's whole number: unit 0 is aspect, then each format's own codes.
struct StoredDensity {
  int unit = 0;
  std::uint32_t x = 1, y = 1;
};

inline std::uint32_t whole_density(double v, std::uint32_t most) {
  const double r = std::floor(v + 0.5);
  return r >= most ? most : r <= 1 ? 1 : static_cast<std::uint32_t>(r);
}

// pHYs: unit 1 is the metre; x and y below 2^31.
inline StoredDensity png_density(const Resolution& r) {
  using U = Resolution::Unit;
  const double per_metre = r.unit == U::inch ? 1 / kMetresPerInch : r.unit == U::centimetre ? 100 : 1;
  constexpr std::uint32_t most = 0x7fffffff;
  return {r.unit == U::aspect ? 0 : 1, whole_density(r.x * per_metre, most), whole_density(r.y * per_metre, most)};
}

inline Resolution png_resolution(const StoredDensity& d) {
  if (d.unit == 0) return {Resolution::Unit::aspect, double(d.x), double(d.y)};
  return {Resolution::Unit::inch, d.x * kMetresPerInch, d.y * kMetresPerInch};
}

// JFIF: unit 1 is the inch, 2 the centimetre; 16-bit densities.
inline StoredDensity jfif_density(const Resolution& r) {
  return {static_cast<int>(r.unit), whole_density(r.x, 0xffff), whole_density(r.y, 0xffff)};
}

inline Resolution jfif_resolution(const StoredDensity& d) {
  return {static_cast<Resolution::Unit>(d.unit), double(d.x), double(d.y)};
}

}  // namespace gpuimg
