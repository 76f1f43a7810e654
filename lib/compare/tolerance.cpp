#include "tolerance.hpp"

#include <cmath>
#include <cstring>

#include "anti_alias.hpp"
#include "pixel_colour.hpp"

namespace gpuimg {

double yiq_distance(const Image& a, const Image& b, std::size_t pixel) {
  const Rgba p = pixel_rgba(a, pixel), q = pixel_rgba(b, pixel);
  const std::int64_t m = max_sample(a.depth);
  // Differences of the composited colours are exact integers; one division
  // brings them to 8-bit units, exactly wherever the result is an integer.
  const auto unit = [&](std::int64_t c1, std::int64_t a1, std::int64_t c2, std::int64_t a2) {
    return static_cast<double>(over_white(c1, a1, m) - over_white(c2, a2, m)) * 255 / (static_cast<double>(m) * m);
  };
  const double dr = unit(p.r, p.a, q.r, q.a), dg = unit(p.g, p.a, q.g, q.a), db = unit(p.b, p.a, q.b, q.a);
  const double y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223;
  const double i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189;
  const double k = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694;
  return std::sqrt((0.5053 * y * y + 0.299 * i * i + 0.1957 * k * k) / 35215);
}

Forgiven forgive(const Image& expected, Image& actual, std::optional<double> threshold, bool ignore_aa) {
  Forgiven out;
  if (!threshold && !ignore_aa) return out;
  const std::size_t px = expected.channels * bytes_per_sample(expected.depth);
  std::vector<std::size_t> similar;
  for (int y = 0; y < expected.height; ++y)
    for (int x = 0; x < expected.width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * expected.width + x;
      if (std::memcmp(expected.data.data() + i * px, actual.data.data() + i * px, px) == 0) continue;
      if (threshold && yiq_distance(expected, actual, i) <= *threshold)
        similar.push_back(i);
      else if (ignore_aa && (anti_aliased(expected, actual, x, y) || anti_aliased(actual, expected, x, y)))
        out.anti_aliased.push_back(i);
    }
  // Copied only now: the detector reads both images as they were.
  for (const std::vector<std::size_t>* list : {&similar, &out.anti_aliased})
    for (const std::size_t i : *list) std::memcpy(actual.data.data() + i * px, expected.data.data() + i * px, px);
  out.similar = similar.size();
  return out;
}

}  // namespace gpuimg
