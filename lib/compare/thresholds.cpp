#include "thresholds.hpp"

#include <optional>

#include "error.hpp"

namespace gpuimg {

const ThresholdSpec* find_threshold(const std::string& name) {
  for (const ThresholdSpec& s : kThresholds)
    if (name == s.name) return &s;
  return nullptr;
}

Threshold parse_threshold(const std::string& where, const ThresholdSpec& spec, const std::string& text) {
  return parse_threshold_named(where + spec.name + ":", spec, text);
}

Threshold parse_threshold_named(const std::string& name, const ThresholdSpec& spec, const std::string& text) {
  if (!spec.percent) return {&spec, parse_number(name, text, NumberForm::decimal, spec.min, spec.max)};
  // "5%", as --threshold and --levels take a share, and refused in their
  // words, which quote the text as typed.
  if (const std::optional<double> v = read_fraction(text); v && *v >= spec.min && *v <= spec.max) return {&spec, *v};
  throw UsageError(name + " must be a fraction from " + number_text(spec.min) + " to " + number_text(spec.max) +
                   " or a percentage from " + number_text(spec.min * 100) + "% to " + number_text(spec.max * 100) +
                   "%, got '" + text + "'");
}

Ssim ssim_needed(const Thresholds& limits) {
  for (const Threshold& t : limits)
    if (t.spec->needs_ssim) return Ssim::compute;
  return Ssim::skip;
}

std::vector<std::string> failures(const Comparison& cmp, const Thresholds& limits) {
  if (!cmp.mismatch.empty()) return {cmp.mismatch};
  static const Threshold kExact = {find_threshold("max-diff"), 0};
  std::vector<std::string> out;
  for (const Threshold& t : limits.empty() ? Thresholds{kExact} : limits) {
    const double v = t.spec->metric(cmp.overall);
    const bool ok = t.spec->at_least ? v >= t.limit : v <= t.limit;
    if (!ok)
      out.push_back(std::string(t.spec->name) + " " + number_text(v) + (t.spec->at_least ? " < " : " > ") +
                    number_text(t.limit));
  }
  return out;
}

std::string describe(const Thresholds& limits) {
  if (limits.empty()) return "max-diff=0";
  std::string out;
  for (const Threshold& t : limits) out += (out.empty() ? "" : " ") + std::string(t.spec->name) + "=" + number_text(t.limit);
  return out;
}

}  // namespace gpuimg
