#include "scope.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>

#include "error.hpp"
#include "number_text.hpp"
#include "tolerance.hpp"

namespace gpuimg {
namespace {

template <class T>
bool alpha_opaque(const Image& img) {
  const T* p = img.samples<T>();
  const T full = static_cast<T>(max_sample(img.depth));
  for (std::size_t i = img.channels - 1; i < img.data.size() / sizeof(T); i += img.channels)
    if (p[i] != full) return false;
  return true;
}

void drop_alpha(Image& img) {
  Image out(img.width, img.height, img.channels - 1, img.depth);
  const std::size_t in_px = img.channels * bytes_per_sample(img.depth), out_px = in_px - bytes_per_sample(img.depth);
  for (std::size_t i = 0; i < img.pixel_count(); ++i)
    std::memcpy(out.data.data() + i * out_px, img.data.data() + i * in_px, out_px);
  img = std::move(out);
}

template <class T>
bool black(const Image& mask, std::size_t pixel) {
  const T* p = mask.samples<T>() + pixel * mask.channels;
  const int colours = mask.has_alpha() ? mask.channels - 1 : mask.channels;
  return std::all_of(p, p + colours, [](T v) { return v == 0; });
}

// One byte a pixel, 1 where the comparison leaves it out.
std::vector<std::uint8_t> left_out(const Image& img, const Scope& scope, const Image* mask) {
  std::vector<std::uint8_t> out(img.pixel_count(), 0);
  for (const Rect& r : scope.ignore) {
    const int x0 = std::min(r.x, img.width), x1 = std::min<long long>(img.width, 0LL + r.x + r.w);
    const int y1 = static_cast<int>(std::min<long long>(img.height, 0LL + r.y + r.h));
    for (int y = std::min(r.y, img.height); y < y1; ++y)
      std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(y) * img.width + x0, x1 - x0, 1);
  }
  if (mask)
    for (std::size_t i = 0; i < out.size(); ++i)
      if (mask->depth == Depth::U8 ? black<std::uint8_t>(*mask, i) : black<std::uint16_t>(*mask, i)) out[i] = 1;
  return out;
}

std::string size_text(const Image& img) { return std::to_string(img.width) + "x" + std::to_string(img.height); }

// Where a rectangle or the mask leaves a pixel out, the actual image takes
// the expected one's samples; returns the note of how many.
std::string leave_out(const Image& expected, Image& actual, const Scope& scope, const Image* mask) {
  const std::vector<std::uint8_t> out = left_out(expected, scope, mask);
  const std::size_t px = expected.channels * bytes_per_sample(expected.depth);
  std::size_t count = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i]) {
      ++count;
      std::memcpy(actual.data.data() + i * px, expected.data.data() + i * px, px);
    }
  const std::string by = (scope.ignore.empty() ? "" : "the ignored rectangles") +
                         std::string(scope.ignore.empty() || !mask ? "" : " and ") +
                         (mask ? "the mask's black pixels" : "");
  // A comparison of nothing would pass whatever the actual image holds.
  if (count == out.size())
    throw UsageError(by + " leave out every pixel of the " + size_text(expected) + " images: nothing is left to compare");
  return std::to_string(count) + " of " + std::to_string(out.size()) + " pixels left out by " + by;
}

}  // namespace

Rect parse_rect(const std::string& what, const std::string& text) {
  std::vector<std::string> parts(1);
  for (const char ch : text)
    if (ch == ',')
      parts.emplace_back();
    else
      parts.back().push_back(ch);
  if (parts.size() != 4)
    throw UsageError(what + " must be X,Y,W,H (the left column, top row, width and height), got '" + text + "'");
  int v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = static_cast<int>(
        parse_number(what + " " + "XYWH"[i], parts[i], NumberForm::integer, i < 2 ? 0 : 1, (1 << 30) - 1));
  return {v[0], v[1], v[2], v[3]};
}

AlphaRule parse_alpha_rule(const std::string& what, const std::string& text) {
  if (text == "compare") return AlphaRule::compare;
  if (text == "ignore") return AlphaRule::ignore;
  throw UsageError(what + " must be compare or ignore, got '" + text + "'");
}

double parse_colour_threshold(const std::string& what, const std::string& text) {
  return parse_number(what, text, NumberForm::decimal, 0, 1);
}

std::vector<std::string> apply_scope(Image& expected, Image& actual, const Scope& scope, const Image* mask,
                                     std::vector<std::size_t>* anti_aliased) {
  std::vector<std::string> notes;
  if (mask && (mask->width != expected.width || mask->height != expected.height))
    throw UsageError(scope.mask + ": the mask is " + size_text(*mask) + ", the images " + size_text(expected));
  if (scope.alpha == AlphaRule::ignore) {
    if (expected.has_alpha()) drop_alpha(expected);
    if (actual.has_alpha()) drop_alpha(actual);
  }
  const bool same_frame =
      expected.width == actual.width && expected.height == actual.height && expected.depth == actual.depth;
  if (!same_frame) return notes;
  for (auto [img, name, other] :
       {std::make_tuple(&expected, "expected", &actual), std::make_tuple(&actual, "actual", &expected)})
    if (img->channels == other->channels + 1 && img->has_alpha() &&
        (img->depth == Depth::U8 ? alpha_opaque<std::uint8_t>(*img) : alpha_opaque<std::uint16_t>(*img))) {
      drop_alpha(*img);
      notes.push_back(std::string(name) + "'s alpha channel is opaque everywhere: compared without it");
    }
  if (expected.channels != actual.channels) return notes;
  if (!scope.ignore.empty() || mask) notes.push_back(leave_out(expected, actual, scope, mask));
  Forgiven f = forgive(expected, actual, scope.threshold, scope.ignore_aa);
  if (scope.threshold)
    notes.push_back(std::to_string(f.similar) + " differing pixels within the colour threshold " +
                    number_text(*scope.threshold) + " counted equal");
  if (scope.ignore_aa)
    notes.push_back(std::to_string(f.anti_aliased.size()) + " differing pixels left out as anti-aliased");
  if (anti_aliased) *anti_aliased = std::move(f.anti_aliased);
  return notes;
}

}  // namespace gpuimg
