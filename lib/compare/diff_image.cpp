#include "diff_image.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace gpuimg {
namespace {

template <class T> int sample8(const T* p, int max_value) {
  return max_value == 255 ? p[0] : (p[0] + 128) / 257;  // 16 to 8 bits as the codecs do
}

template <class T> void paint(const Image& e, const Image& a, Image& out) {
  const int ch = e.channels, max_value = max_sample(e.depth);
  const T* pe = e.samples<T>();
  const T* pa = a.samples<T>();
  std::uint8_t* po = out.samples<std::uint8_t>();
  for (std::size_t i = 0; i < e.pixel_count(); ++i) {
    const T* se = pe + i * ch;
    const T* sa = pa + i * ch;
    int diff = 0;
    for (int c = 0; c < ch; ++c) diff = std::max(diff, std::abs(int(se[c]) - int(sa[c])));
    std::uint8_t* o = po + i * 3;
    if (diff > 0) {
      diff_colour(diff, max_value, o);
      continue;
    }
    const int luma = ch >= 3 ? (299 * sample8(se, max_value) + 587 * sample8(se + 1, max_value) +
                                114 * sample8(se + 2, max_value) + 500) / 1000
                             : sample8(se, max_value);
    o[0] = o[1] = o[2] = static_cast<std::uint8_t>(luma / kDiffDim);
  }
}

bool differs(const Image& e, const Image& a, int x, int y) {
  const std::size_t n = static_cast<std::size_t>(e.channels) * bytes_per_sample(e.depth);
  const std::size_t at = (static_cast<std::size_t>(y) * e.width + x) * n;
  return !std::equal(e.data.begin() + at, e.data.begin() + at + n, a.data.begin() + at);
}

}  // namespace

void diff_colour(int diff, int max_value, unsigned char rgb[3]) {
  // 0 for a difference of 1, 1 for the full range.
  const double t = std::log(static_cast<double>(diff)) / std::log(static_cast<double>(max_value));
  rgb[0] = 255;
  rgb[1] = static_cast<unsigned char>(std::lround(255 * (1 - t)));
  rgb[2] = 0;
}

Image diff_image(const Image& expected, const Image& actual, const Comparison& cmp) {
  Image out(expected.width, expected.height, 3, Depth::U8);
  if (expected.depth == Depth::U8)
    paint<std::uint8_t>(expected, actual, out);
  else
    paint<std::uint16_t>(expected, actual, out);
  std::vector<bool> anti_aliased(cmp.anti_aliased.empty() ? 0 : out.pixel_count());
  for (const std::size_t i : cmp.anti_aliased) {
    anti_aliased[i] = true;
    std::copy(kDiffAntiAliased, kDiffAntiAliased + 3, out.data.begin() + static_cast<std::ptrdiff_t>(i * 3));
  }
  if (cmp.box.empty()) return out;

  const int x0 = std::max(0, cmp.box.x0 - 1), y0 = std::max(0, cmp.box.y0 - 1);
  const int x1 = std::min(out.width - 1, cmp.box.x1 + 1), y1 = std::min(out.height - 1, cmp.box.y1 + 1);
  const auto mark = [&](int x, int y) {
    const std::size_t i = static_cast<std::size_t>(y) * out.width + x;
    if (differs(expected, actual, x, y) || (!anti_aliased.empty() && anti_aliased[i])) return;
    std::copy(kDiffBox, kDiffBox + 3, out.data.begin() + static_cast<std::ptrdiff_t>(i * 3));
  };
  for (int x = x0; x <= x1; ++x) {
    mark(x, y0);
    mark(x, y1);
  }
  for (int y = y0; y <= y1; ++y) {
    mark(x0, y);
    mark(x1, y);
  }
  return out;
}

}  // namespace gpuimg
