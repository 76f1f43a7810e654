#pragma once
// `compare --json`: the comparison in the schema docs/compare.md documents.
// A change of a field's meaning or a removal bumps the schema version;
// new fields may be added within a version.
#include <string>

#include "scope.hpp"
#include "thresholds.hpp"

namespace gpuimg {

constexpr const char* kCompareSchema = "gpuimg-compare/1";

struct CompareReport {
  std::string expected_path, actual_path;
  const Image* expected;
  const Image* actual;
  const char* device;  // "cpu" or "cuda"
  const Comparison* comparison;
  const Thresholds* thresholds;
  const Scope* scope;
};

// One JSON object, ending in a newline.
std::string report_json(const CompareReport& r);

// The pieces golden check's JSON shares with it: a string in the printable
// form docs/compare.md describes, quoted; a number, null where infinite or
// NaN (an SSIM not computed); a metrics record's fields, without braces;
// the limits by name, {"max-diff": 0} for none.
std::string json_string(const std::string& s);
std::string json_number(double v);
std::string metrics_json(const ChannelMetrics& m);
std::string thresholds_json(const Thresholds& limits);

}  // namespace gpuimg
