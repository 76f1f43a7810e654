// Two images from one input (a 4-byte little-endian length of the expected
// image's bytes, then those bytes, then the actual image's), compared on
// the CPU as `gpuimg compare` does, with its difference picture and JSON.
// The metrics must stay in their ranges, and an image compared with itself
// must be identical; --threshold and --ignore-aa may only forgive pixels
// that differ.
#include <algorithm>
#include <cmath>
#include <vector>

#include "codec.hpp"
#include "comparison.hpp"
#include "diff_image.hpp"
#include "error.hpp"
#include "fuzz_target.hpp"
#include "report_json.hpp"
#include "scope.hpp"

using gpuimg::fuzz::require;

namespace {

bool decode(const std::uint8_t* data, std::size_t size, gpuimg::Image& img) {
  gpuimg::ReadOptions opts;
  opts.max_pixels = 1 << 16;
  try {
    img = gpuimg::decode_image_bytes("fuzz-input", std::vector<std::uint8_t>(data, data + size), opts);
    return true;
  } catch (const gpuimg::InputError&) {
    return false;
  }
}

void check_ranges(const gpuimg::ChannelMetrics& m, const gpuimg::Image& img) {
  require(m.max_diff >= 0 && m.max_diff <= gpuimg::max_sample(img.depth), "max diff within the sample range");
  require(m.differing <= img.pixel_count() && m.differing_share >= 0 && m.differing_share <= 1,
          "differing pixels within the image");
  // The mean of |d| is at most the root of the mean of d^2, and both at most max |d|.
  const double slack = 1e-9 * (1 + m.max_diff);
  require(m.mae >= 0 && m.mae <= m.rmse + slack && m.rmse <= m.max_diff + slack, "MAE <= RMSE <= max diff");
  require(m.ssim >= -1 - 1e-9 && m.ssim <= 1 + 1e-9, "SSIM within -1..1");
  require((m.max_diff == 0) == std::isinf(m.psnr), "PSNR infinite exactly for equal samples");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const std::uint32_t length = data[0] | data[1] << 8 | data[2] << 16 | std::uint32_t(data[3]) << 24;
  const std::size_t first = std::min<std::size_t>(size - 4, length);
  gpuimg::Image expected, actual;
  if (!decode(data + 4, first, expected) || !decode(data + 4 + first, size - 4 - first, actual)) return 0;

  require(gpuimg::compare_images(expected, expected, gpuimg::Backend::cpu, gpuimg::Ssim::compute).identical(),
          "an image equals itself");
  const gpuimg::Comparison c = gpuimg::compare_images(expected, actual, gpuimg::Backend::cpu, gpuimg::Ssim::compute);
  const gpuimg::Thresholds none;
  const gpuimg::Scope whole;
  gpuimg::report_json({"e.png", "a.png", &expected, &actual, "cpu", &c, &none, &whole});
  require(gpuimg::failures(c, none).empty() == c.identical(), "with no limits, any difference fails");
  if (!c.mismatch.empty()) return 0;
  check_ranges(c.overall, expected);
  for (const gpuimg::ChannelMetrics& m : c.channels) check_ranges(m, expected);
  const gpuimg::Image picture = gpuimg::diff_image(expected, actual, c);
  require(picture.width == expected.width && picture.height == expected.height && picture.channels == 3,
          "the difference picture is RGB, the size of the expected image");

  gpuimg::Scope forgiving;
  forgiving.threshold = 0.1;
  forgiving.ignore_aa = true;
  gpuimg::Image e = expected, a = actual;
  std::vector<std::size_t> anti_aliased;
  gpuimg::apply_scope(e, a, forgiving, nullptr, &anti_aliased);
  gpuimg::Comparison f = gpuimg::compare_images(e, a, gpuimg::Backend::cpu, gpuimg::Ssim::skip);
  require(f.overall.differing + anti_aliased.size() <= c.overall.differing, "only differing pixels are forgiven");
  const std::size_t px = e.channels * gpuimg::bytes_per_sample(e.depth);
  for (const std::size_t i : anti_aliased)
    require(i < e.pixel_count() && !std::equal(expected.data.begin() + i * px, expected.data.begin() + (i + 1) * px,
                                               actual.data.begin() + i * px),
            "an anti-aliased pixel differed");
  f.anti_aliased = std::move(anti_aliased);
  gpuimg::diff_image(e, a, f);
  return 0;
}
