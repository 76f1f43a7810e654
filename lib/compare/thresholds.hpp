#pragma once
// The limits a comparison may be held to. One table declares each: its name
// (the CLI option --NAME, the manifest field NAME=VALUE and the JSON key), its
// direction, its valid range and the overall metric it bounds; the CLI
// options, the manifest reader, the checks and the JSON all read this table.
#include <limits>
#include <string>
#include <vector>

#include "comparison.hpp"
#include "number_text.hpp"

namespace gpuimg {

struct ThresholdSpec {
  const char* name;     // "max-diff"
  const char* alias;    // a second CLI name, or nullptr
  bool at_least;        // the metric must be >= the limit (else <=)
  double min, max;      // valid limits, inclusive
  const char* meaning;  // for --help
  double (*metric)(const ChannelMetrics&);
  bool needs_ssim = false;  // its metric is SSIM, which compare_images computes only when asked
  bool percent = false;     // a share, which may also be written as a percentage (5%)
};

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline const ThresholdSpec kThresholds[] = {
    {"max-diff", nullptr, false, 0, 65535, "largest absolute difference of any sample",
     [](const ChannelMetrics& m) { return double(m.max_diff); }},
    {"max-differing", nullptr, false, 0, 1e18, "number of pixels with any differing sample",
     [](const ChannelMetrics& m) { return double(m.differing); }},
    {"max-differing-share", nullptr, false, 0, 1, "share of pixels with any differing sample, 0 to 1 or 0% to 100%",
     [](const ChannelMetrics& m) { return m.differing_share; }, false, true},
    {"max-mae", nullptr, false, 0, 65535, "mean absolute error over all samples",
     [](const ChannelMetrics& m) { return m.mae; }},
    {"max-rmse", nullptr, false, 0, 65535, "root mean square error over all samples",
     [](const ChannelMetrics& m) { return m.rmse; }},
    {"min-psnr", "psnr", true, 0, kInf, "PSNR in dB over all samples (identical images: infinite)",
     [](const ChannelMetrics& m) { return m.psnr; }},
    {"min-ssim", "ssim", true, -1, 1, "SSIM, the mean over channels",
     [](const ChannelMetrics& m) { return m.ssim; }, true},
};

struct Threshold {
  const ThresholdSpec* spec;
  double limit;
};

// No thresholds means the default: any difference fails (max-diff=0).
using Thresholds = std::vector<Threshold>;

// Builds a threshold from its name and the text of its limit. Throws
// UsageError ("--min-psnr: must be a decimal number from 0 to inf, got 'x'"), with
// `where` in front of the name ("--" on the command line).
Threshold parse_threshold(const std::string& where, const ThresholdSpec& spec, const std::string& text);
// The same with the whole name an error gives it ("--min-psnr (or --psnr):").
Threshold parse_threshold_named(const std::string& name, const ThresholdSpec& spec, const std::string& text);
const ThresholdSpec* find_threshold(const std::string& name);  // by name, nullptr if none

// Whether any of `limits` bounds SSIM, so compare_images must compute it.
Ssim ssim_needed(const Thresholds& limits);

// Why the comparison fails, one line each ("max-diff 3 > 1", or the shape
// mismatch); empty when it passes.
std::vector<std::string> failures(const Comparison& cmp, const Thresholds& limits);

// "max-diff=1 min-psnr=45"; "max-diff=0" for the default.
std::string describe(const Thresholds& limits);

}  // namespace gpuimg
