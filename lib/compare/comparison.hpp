#pragma once
// Comparing an image with its expected version: exact difference counts and
// sums on the host, SSIM on the chosen backend.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "backend.hpp"
#include "image.hpp"

namespace gpuimg {

// Metrics of one channel, or of the whole image. Differences are in sample
// units (0..255 or 0..65535); shares are fractions of the pixel count.
struct ChannelMetrics {
  int max_diff = 0;                   // largest |expected - actual|
  std::uint64_t differing = 0;        // pixels whose sample (overall: any sample) differs
  double differing_share = 0;         // differing / pixels
  double mae = 0, rmse = 0;           // over the channel's samples (overall: all samples)
  double psnr = 0;                    // 10 log10(L^2 / MSE); +infinity when MSE is 0
  // Mean over pixels (overall: mean of the channels' means); NaN when not
  // computed, so a check that forgets to ask for it fails rather than passes.
  double ssim = std::numeric_limits<double>::quiet_NaN();
};

// Inclusive corners of the smallest rectangle holding every differing pixel.
struct Box {
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;
  bool empty() const { return x1 < x0; }
};

struct Comparison {
  // What differs in shape ("size 320x200 vs 321x200", "depth 8-bit vs
  // 16-bit", ...); empty when size, channels and depth agree. The metrics
  // below are only computed when it is empty.
  std::string mismatch;
  ChannelMetrics overall;
  std::vector<ChannelMetrics> channels;
  Box box;
  std::vector<std::string> notes;  // what apply_scope changed, for the report; compare_images sets none
  std::vector<std::size_t> anti_aliased;  // pixels apply_scope left out as anti-aliased, for diff_image
  bool identical() const { return mismatch.empty() && overall.max_diff == 0; }
  bool has_ssim() const { return !std::isnan(overall.ssim); }
};

// SSIM's 121-tap window costs some 4 CPU-seconds an RGB megapixel, a hundred
// times the exact sums; it is computed only when a caller asks (a limit on
// it, or a report that prints it). Identical images get 1 either way, free.
enum class Ssim { skip, compute };

// Throws DeviceError when the CUDA backend fails.
Comparison compare_images(const Image& expected, const Image& actual, Backend backend, Ssim ssim);

// "R", "G", "B", "A", or "gray", "alpha" for the channels of a layout.
const char* channel_name(int channel, int channels);

}  // namespace gpuimg
