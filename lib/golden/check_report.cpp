#include "check_report.hpp"

#include <cstdio>

#include "printable.hpp"
#include "report_json.hpp"

namespace gpuimg {

// printable() first, as for the JSON: names and messages may hold any
// bytes, and XML 1.0 allows no control character but tab and newline.
std::string xml_text(const std::string& s) {
  std::string out;
  for (const char ch : printable(s)) switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += ch;
    }
  return out;
}

namespace {

// GitHub's workflow-command escapes: '%', CR and LF everywhere, and ':' and
// ',' too in a property (file=, title=).
std::string github_text(const std::string& s, bool property) {
  std::string out;
  for (const char ch : printable(s)) switch (ch) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += ch;
    }
  return out;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

const char* outcome_name(CaseResult::Outcome o) {
  return o == CaseResult::Outcome::pass ? "pass" : o == CaseResult::Outcome::fail ? "fail" : "error";
}

std::string string_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json_string(items[i]);
  return out + "]";
}

}  // namespace

int CheckRun::count(CaseResult::Outcome o) const {
  int n = 0;
  for (const CaseResult& c : cases) n += c.outcome == o;
  return n;
}

std::string check_counts(const CheckRun& run) {
  const auto counted = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  return counted(run.cases.size(), "case", "cases") + ": " + std::to_string(run.count(CaseResult::Outcome::pass)) +
         " passed, " + std::to_string(run.count(CaseResult::Outcome::fail)) + " failed, " +
         counted(static_cast<std::size_t>(run.count(CaseResult::Outcome::error)), "error", "errors");
}

std::string case_message(const CaseResult& r) {
  std::string out;
  for (const std::string& why : r.reasons) out += (out.empty() ? "" : ", ") + why;
  return r.diff.empty() ? out : out + "; see " + r.diff;
}

std::string junit_xml(const CheckRun& run) {
  double total = 0;
  for (const CaseResult& c : run.cases) total += c.seconds;
  const std::string counts = " tests=\"" + std::to_string(run.cases.size()) + "\" failures=\"" +
                             std::to_string(run.count(CaseResult::Outcome::fail)) + "\" errors=\"" +
                             std::to_string(run.count(CaseResult::Outcome::error)) + "\"";
  const std::string manifest = xml_text(run.manifest->path.string());
  // Ant's junit.xsd, which Jenkins, GitLab and the JUnit report actions
  // follow, requires a suite's id, package, timestamp and hostname, and its
  // properties, system-out and system-err elements, empty or not.
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpuimg golden check\"" + counts +
                    " time=\"" + seconds_text(total) + "\">\n  <testsuite name=\"" + manifest +
                    "\" package=\"gpuimg.golden\" id=\"0\" timestamp=\"" + xml_text(run.timestamp) + "\" hostname=\"" +
                    xml_text(run.hostname) + "\"" + counts + " skipped=\"0\" time=\"" + seconds_text(total) +
                    "\">\n    <properties/>\n";
  for (const CaseResult& c : run.cases) {
    out += "    <testcase classname=\"" + manifest + "\" name=\"" + xml_text(c.golden_case->name) + "\" time=\"" +
           seconds_text(c.seconds) + "\"";
    if (c.outcome == CaseResult::Outcome::pass) {
      out += "/>\n";
      continue;
    }
    const char* tag = c.outcome == CaseResult::Outcome::fail ? "failure" : "error";
    const std::string message = xml_text(case_message(c));
    out += ">\n      <" + std::string(tag) + " type=\"" + tag + "\" message=\"" + message + "\">" + message;
    if (!c.diff.empty()) out += "\ndiff: " + xml_text(c.diff);
    out += "</" + std::string(tag) + ">\n    </testcase>\n";
  }
  return out + "    <system-out/>\n    <system-err/>\n  </testsuite>\n</testsuites>\n";
}

std::string check_json(const CheckRun& run) {
  std::string out = "{\n  \"schema\": " + json_string(kGoldenSchema) +
                    ",\n  \"manifest\": " + json_string(run.manifest->path.string()) +
                    ",\n  \"device\": " + json_string(run.device) + ",\n  \"pass\": " +
                    (run.count(CaseResult::Outcome::pass) == static_cast<int>(run.cases.size()) ? "true" : "false") +
                    ",\n  \"counts\": {\"cases\": " + std::to_string(run.cases.size()) +
                    ", \"passed\": " + std::to_string(run.count(CaseResult::Outcome::pass)) +
                    ", \"failed\": " + std::to_string(run.count(CaseResult::Outcome::fail)) +
                    ", \"errors\": " + std::to_string(run.count(CaseResult::Outcome::error)) + "},\n  \"cases\": [";
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    const CaseResult& c = run.cases[i];
    const GoldenCase& g = *c.golden_case;
    out += std::string(i ? "," : "") + "\n    {\"name\": " + json_string(g.name) +
           ", \"line\": " + std::to_string(g.line) + ", \"result\": " + json_string(outcome_name(c.outcome)) +
           ", \"golden\": " + json_string(g.golden.string()) + ", \"seconds\": " + seconds_text(c.seconds) +
           ",\n     \"thresholds\": " + thresholds_json(g.limits);
    out += ",\n     \"failures\": " +
           string_list(c.outcome == CaseResult::Outcome::fail ? c.reasons : std::vector<std::string>{}) +
           ", \"error\": " + (c.outcome == CaseResult::Outcome::error ? json_string(c.reasons.front()) : "null") +
           ", \"diff\": " + (c.diff.empty() ? "null" : json_string(c.diff));
    const bool metrics = c.comparison && c.comparison->mismatch.empty();
    out += ",\n     \"notes\": " + string_list(c.comparison ? c.comparison->notes : std::vector<std::string>{}) +
           ", \"mismatch\": " + (c.comparison && !metrics ? json_string(c.comparison->mismatch) : "null") +
           ",\n     \"overall\": " + (metrics ? "{" + metrics_json(c.comparison->overall) + "}" : "null") + "}";
  }
  return out + "\n  ]\n}\n";
}

std::string github_annotations(const CheckRun& run) {
  std::string out;
  for (const CaseResult& c : run.cases) {
    if (c.outcome == CaseResult::Outcome::pass) continue;
    out +=
        "::error file=" + github_text(run.manifest->path.string(), true) +
        ",line=" + std::to_string(c.golden_case->line) + ",title=" +
        github_text("golden " + c.golden_case->name + (c.outcome == CaseResult::Outcome::fail ? " failed" : ": error"),
                    true) +
        "::" + github_text(case_message(c), false) + "\n";
  }
  return out;
}

}  // namespace gpuimg
