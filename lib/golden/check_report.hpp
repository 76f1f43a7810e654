#pragma once
// What `golden check` found, case by case, and the forms CI systems read it
// in: JUnit XML (--junit), one JSON document (--json, schema
// gpuimg-golden/1 in docs/compare.md) and GitHub Actions annotations
// (--format github).
#include <optional>
#include <string>
#include <vector>

#include "comparison.hpp"
#include "manifest.hpp"

namespace gpuimg {

constexpr const char* kGoldenSchema = "gpuimg-golden/1";

struct CaseResult {
  const GoldenCase* golden_case;
  enum class Outcome { pass, fail, error } outcome;
  std::vector<std::string> reasons;      // fail: the limits broken or the mismatch; error: the message
  std::optional<Comparison> comparison;  // absent for an error
  std::string diff;                      // the difference picture written, or empty
  double seconds = 0;                    // running the case and comparing
};

struct CheckRun {
  const Manifest* manifest;
  const char* device;               // "cpu" or "cuda"
  std::string timestamp, hostname;  // for JUnit: "2026-11-25T21:15:00" (UTC), the machine's name
  std::vector<CaseResult> cases;
  int count(CaseResult::Outcome o) const;
};

// `s` in gpuimg's printable form, with & < > " ' escaped: text for XML and HTML.
std::string xml_text(const std::string& s);

// The run's counts, as the table's last line and the HTML report give
// them: "3 cases: 1 passed, 1 failed, 1 error" (a count of 1 singular).
std::string check_counts(const CheckRun& run);

// The reasons joined into one line, then "; see DIFF" when a picture was written.
std::string case_message(const CaseResult& r);

std::string junit_xml(const CheckRun& run);           // a whole file, ending in a newline
std::string check_json(const CheckRun& run);          // one object, ending in a newline
std::string github_annotations(const CheckRun& run);  // one ::error line per failing or broken case

}  // namespace gpuimg
