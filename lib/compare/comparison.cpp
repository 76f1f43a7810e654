#include "comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "ssim.hpp"

namespace gpuimg {
namespace {

std::string size_text(const Image& img) { return std::to_string(img.width) + "x" + std::to_string(img.height); }

const char* layout_name(int channels) {
  static const char* const names[] = {"?", "gray", "gray+alpha", "RGB", "RGBA"};
  return channels >= 1 && channels <= 4 ? names[channels] : names[0];
}

const char* depth_name(Depth d) { return d == Depth::U8 ? "8-bit" : "16-bit"; }

std::string mismatch_of(const Image& e, const Image& a) {
  std::string out;
  const auto add = [&](const std::string& what) { out += (out.empty() ? "" : ", ") + what; };
  if (e.width != a.width || e.height != a.height) add("size " + size_text(e) + " vs " + size_text(a));
  if (e.channels != a.channels)
    add(std::string("channels ") + layout_name(e.channels) + " vs " + layout_name(a.channels));
  if (e.depth != a.depth) add(std::string("depth ") + depth_name(e.depth) + " vs " + depth_name(a.depth));
  return out;
}

double psnr(double mse, int max_value) {
  if (mse == 0) return std::numeric_limits<double>::infinity();
  return 10 * std::log10(static_cast<double>(max_value) * max_value / mse);
}

// Integer sums, so every count and the maximum are exact; the means are
// single divisions of exact sums (|d|^2 <= 2^32, so 2^31 pixels fit in 64 bits).
template <class T> void exact_metrics(const Image& e, const Image& a, Comparison& out) {
  const int ch = e.channels;
  std::vector<std::uint64_t> abs_sum(ch, 0), sq_sum(ch, 0);
  const T* pe = e.samples<T>();
  const T* pa = a.samples<T>();
  for (int y = 0; y < e.height; ++y)
    for (int x = 0; x < e.width; ++x) {
      const std::size_t at = (static_cast<std::size_t>(y) * e.width + x) * ch;
      bool any = false;
      for (int c = 0; c < ch; ++c) {
        const int d = std::abs(static_cast<int>(pe[at + c]) - static_cast<int>(pa[at + c]));
        if (d == 0) continue;
        any = true;
        ChannelMetrics& m = out.channels[c];
        m.max_diff = std::max(m.max_diff, d);
        ++m.differing;
        abs_sum[c] += static_cast<std::uint64_t>(d);
        sq_sum[c] += static_cast<std::uint64_t>(d) * static_cast<std::uint64_t>(d);
      }
      if (!any) continue;
      ++out.overall.differing;
      Box& b = out.box;
      if (b.empty()) b = {x, y, x, y};
      b = {std::min(b.x0, x), std::min(b.y0, y), std::max(b.x1, x), std::max(b.y1, y)};
    }

  const double pixels = static_cast<double>(e.pixel_count());
  const int max_value = max_sample(e.depth);
  std::uint64_t abs_total = 0, sq_total = 0;
  for (int c = 0; c < ch; ++c) {
    ChannelMetrics& m = out.channels[c];
    m.differing_share = m.differing / pixels;
    m.mae = abs_sum[c] / pixels;
    const double mse = sq_sum[c] / pixels;
    m.rmse = std::sqrt(mse);
    m.psnr = psnr(mse, max_value);
    out.overall.max_diff = std::max(out.overall.max_diff, m.max_diff);
    abs_total += abs_sum[c];
    sq_total += sq_sum[c];
  }
  ChannelMetrics& o = out.overall;
  o.differing_share = o.differing / pixels;
  o.mae = abs_total / (pixels * ch);
  const double mse = sq_total / (pixels * ch);
  o.rmse = std::sqrt(mse);
  o.psnr = psnr(mse, max_value);
}

}  // namespace

const char* channel_name(int channel, int channels) {
  static const char* const gray[] = {"gray", "alpha"};
  static const char* const colour[] = {"R", "G", "B", "A"};
  return channels <= 2 ? gray[channel] : colour[channel];
}

Comparison compare_images(const Image& expected, const Image& actual, Backend backend, Ssim wanted) {
  Comparison out;
  out.mismatch = mismatch_of(expected, actual);
  if (!out.mismatch.empty()) return out;
  out.channels.resize(expected.channels);
  if (expected.depth == Depth::U8)
    exact_metrics<std::uint8_t>(expected, actual, out);
  else
    exact_metrics<std::uint16_t>(expected, actual, out);

  // Identical images have SSIM 1 by the formula; skip the 121-tap pass.
  if (out.overall.differing == 0) {
    out.overall.ssim = 1;
    for (ChannelMetrics& m : out.channels) m.ssim = 1;
    return out;
  }
  if (wanted == Ssim::skip) return out;
  const std::vector<double> ssim =
      backend == Backend::cuda ? ssim_cuda(expected, actual) : ssim_cpu(expected, actual);
  double sum = 0;
  for (int c = 0; c < expected.channels; ++c) sum += out.channels[c].ssim = ssim[c];
  out.overall.ssim = sum / expected.channels;
  return out;
}

}  // namespace gpuimg
