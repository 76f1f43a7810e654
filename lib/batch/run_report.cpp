#include "run_report.hpp"

#include <cstdint>

#include "error.hpp"
#include "file_util.hpp"
#include "report_json.hpp"

namespace gpuimg {
namespace {

std::string json_strings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json_string(items[i]);
  return out + "]";
}

double rate(const RunReport& r) { return r.wall_seconds > 0 ? static_cast<double>(r.processed) / r.wall_seconds : 0; }

// The members of one report, at `indent`.
std::string members(const RunReport& r, const std::string& indent) {
  const std::string sep = ",\n" + indent;
  std::string out = indent + "\"schema\": " + json_string(kReportSchema);
  out += sep + "\"mode\": " + json_string(r.mode);
  out += sep + "\"shard\": {\"index\": " + std::to_string(r.shard.index) + ", \"count\": " +
         std::to_string(r.shard.count) + "}";
  out += sep + "\"devices\": " + json_strings(r.devices);
  out += sep + "\"files\": " + std::to_string(r.files);
  out += sep + "\"processed\": " + std::to_string(r.processed);
  out += sep + "\"failed\": " + std::to_string(r.failed);
  out += sep + "\"skipped\": " + std::to_string(r.skipped);
  out += sep + "\"failures\": [";
  for (std::size_t i = 0; i < r.failures.size(); ++i)
    out += std::string(i ? "," : "") + "\n" + indent + "  {\"file\": " + json_string(r.failures[i].file) +
           ", \"reason\": " + json_string(r.failures[i].reason) + "}";
  out += r.failures.empty() ? "]" : "\n" + indent + "]";
  out += sep + "\"exit_status\": " + std::to_string(r.exit_status);
  out += sep + "\"complete\": " + (r.complete ? "true" : "false");
  out += sep + "\"wall_seconds\": " + json_number(r.wall_seconds);
  return out + sep + "\"images_per_second\": " + json_number(rate(r));
}

}  // namespace

FileFailure file_failure(const std::string& input, const std::string& message) {
  const std::string prefix = input + ": ";
  if (message.compare(0, prefix.size(), prefix) == 0) return {input, message.substr(prefix.size())};
  return {input, message};
}

std::string run_report_json(const RunReport& r) { return "{\n" + members(r, "  ") + "\n}\n"; }

void write_report(const std::string& path, const RunReport& r) {
  const std::string json = run_report_json(r);
  write_file_atomically(path, std::vector<std::uint8_t>(json.begin(), json.end()));
}

}  // namespace gpuimg
