#pragma once
// `compare --json`: the comparison in the schema docs/compare.md documents.
// A change of a field's meaning or a removal bumps the schema version;
// new fields may be added within a version.
#include <string>

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
};

// One JSON object, ending in a newline.
std::string report_json(const CompareReport& r);

}  // namespace gpuimg
