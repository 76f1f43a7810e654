#include "thresholds.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "error.hpp"

namespace gpuimg {

std::string number_text(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

const ThresholdSpec* find_threshold(const std::string& name) {
  for (const ThresholdSpec& s : kThresholds)
    if (name == s.name) return &s;
  return nullptr;
}

Threshold parse_threshold(const std::string& where, const ThresholdSpec& spec, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double v = text.empty() || std::isspace(static_cast<unsigned char>(text[0])) ? NAN : std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || std::isnan(v) || v < spec.min || v > spec.max)
    throw UsageError(where + spec.name + ": must be a number from " + number_text(spec.min) + " to " +
                     number_text(spec.max) + ", got '" + text + "'");
  return {&spec, v};
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
