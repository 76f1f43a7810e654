#pragma once
// What part of a pair a comparison looks at: rectangles left out (--ignore),
// a mask whose black pixels are left out (--mask), whether alpha counts
// (--alpha), a perceptual colour distance under which pixels count as
// equal (--threshold), and whether pixels on a moved anti-aliased edge
// count (--ignore-aa). Applied before any metric, by making the actual image
// equal to the expected one wherever it is left out, so the counts, SSIM
// and the difference picture all follow one rule.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "image.hpp"

namespace gpuimg {

struct Rect {
  int x = 0, y = 0, w = 0, h = 0;
};

enum class AlphaRule { compare, ignore };

struct Scope {
  std::vector<Rect> ignore;
  std::string mask;  // the mask's file, for messages; empty: none
  AlphaRule alpha = AlphaRule::compare;
  std::optional<double> threshold;  // 0 to 1
  bool ignore_aa = false;
};

// "X,Y,W,H", X and Y from 0, W and H from 1 (integers). Throws UsageError
// "WHAT must be X,Y,W,H ..." naming `what` ("--ignore:", "ignore=").
Rect parse_rect(const std::string& what, const std::string& text);

// "compare" or "ignore"; throws UsageError naming `what`.
AlphaRule parse_alpha_rule(const std::string& what, const std::string& text);

// A decimal from 0 to 1; throws UsageError naming `what` ("--threshold:").
double parse_colour_threshold(const std::string& what, const std::string& text);

// Fits the pair to `scope` and returns notes for the report:
// - AlphaRule::ignore drops both images' alpha channels;
// - an alpha channel on one side only that is opaque everywhere is dropped,
//   with a note, so RGB and the same pixels as opaque RGBA compare equal;
// - where a rectangle or black pixel of `mask` (the file scope.mask, read by
//   the caller; nullptr when none) leaves a pixel out, the expected image's
//   samples are copied into the actual one, with a note of how many;
// - then, with a threshold or ignore_aa, so are the samples of each pixel
//   that still differs and that forgive() (tolerance.hpp) forgives, with a
//   note of how many; the anti-aliased ones' indices go to `anti_aliased`,
//   when given, for the difference picture.
// Rectangles are clipped to the image. A pair whose shapes still differ is
// left for compare_images to report. Throws UsageError for a mask whose
// size is not the expected image's.
std::vector<std::string> apply_scope(Image& expected, Image& actual, const Scope& scope, const Image* mask,
                                     std::vector<std::size_t>* anti_aliased = nullptr);

}  // namespace gpuimg
