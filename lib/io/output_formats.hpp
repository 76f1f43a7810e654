#pragma once
// Which output extensions this build writes, and what each file can hold.
// docs/formats.md is the user-facing copy of this table; keep them in step.
#include <string>

#include "image.hpp"
#include "sniff.hpp"

namespace gpuimg {

enum ChannelMask : unsigned { kGray = 1u << 1, kGrayAlpha = 1u << 2, kRgb = 1u << 3, kRgba = 1u << 4 };

struct OutputFormat {
  const char* extension;  // lower-case, without the dot
  Format format;
  unsigned channels;      // ChannelMask bits: the layouts the file keeps exactly
  bool holds_16bit;
};

// WebP has no gray. BMP keeps gray (an 8-bit file of the 256 grays,
// bmp_gray.cpp) and RGB (stb_image_write's 24-bit files); its 32-bit
// files, which many readers take as RGB, are not written: alpha is
// dropped, as it was when OpenCV wrote BMP. TIFF gray+alpha
// is widened to RGBA, as OpenCV's encoder did, so files written before
// and now hold the same layouts.
inline constexpr OutputFormat kOutputFormats[] = {
    {"png", Format::png, kGray | kGrayAlpha | kRgb | kRgba, true},
    {"jpg", Format::jpeg, kGray | kRgb, false},
    {"jpeg", Format::jpeg, kGray | kRgb, false},
#if GPUIMG_WITH_TIFF
    {"tif", Format::tiff, kGray | kRgb | kRgba, true},
    {"tiff", Format::tiff, kGray | kRgb | kRgba, true},
#endif
    {"webp", Format::webp, kRgb | kRgba, false},
    {"bmp", Format::bmp, kGray | kRgb, false},
    {"pgm", Format::pnm, kGray, true},
    {"ppm", Format::pnm, kRgb, true},
    {"pnm", Format::pnm, kGray | kRgb, true},
    {"tga", Format::tga, kGray | kGrayAlpha | kRgb | kRgba, false},
};

inline const OutputFormat* output_format_for(const std::string& lower_extension) {
  for (const OutputFormat& f : kOutputFormats) {
    if (lower_extension == f.extension) return &f;
  }
  return nullptr;
}

struct Layout {
  int channels;
  Depth depth;
};

// The first layout the format holds, in the order: as is; gray widened to
// colour (lossless); alpha dropped; colour reduced to gray (last: lossy).
inline Layout stored_layout(const OutputFormat& f, int channels, Depth depth) {
  static constexpr int preference[5][4] = {{0}, {1, 3}, {2, 4, 1, 3}, {3, 1}, {4, 3, 2, 1}};
  int chosen = channels;
  for (int candidate : preference[channels]) {
    if (candidate != 0 && (f.channels & (1u << candidate))) {
      chosen = candidate;
      break;
    }
  }
  return {chosen, f.holds_16bit ? depth : Depth::U8};
}

}  // namespace gpuimg
