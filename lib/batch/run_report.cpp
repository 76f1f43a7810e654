#include "run_report.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "error.hpp"
#include "file_util.hpp"
#include "fnv1a.hpp"
#include "json_reader.hpp"
#include "printable.hpp"
#include "report_json.hpp"

namespace gpuimg {
namespace {

std::string json_strings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json_string(items[i]);
  return out + "]";
}

double rate(const RunReport& r) { return r.wall_seconds > 0 ? static_cast<double>(r.processed) / r.wall_seconds : 0; }

// The members of one report, at `indent`; a merged report's shards nest.
std::string members(const RunReport& r, const std::string& indent) {
  const std::string sep = ",\n" + indent;
  std::string out = indent + "\"schema\": " + json_string(kReportSchema);
  out += sep + "\"mode\": " + json_string(r.mode);
  out += sep + "\"shard\": {\"index\": " + std::to_string(r.shard.index) + ", \"count\": " +
         std::to_string(r.shard.count) + "}";
  if (!r.run.empty()) out += sep + "\"run\": " + json_string(r.run);
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
  out += sep + "\"images_per_second\": " + json_number(rate(r));
  if (r.mode != "merged") return out;
  out += sep + "\"shards\": [";
  for (std::size_t i = 0; i < r.shards.size(); ++i)
    out += std::string(i ? "," : "") + "\n" + indent + "  {\n" + members(r.shards[i], indent + "    ") + "\n" +
           indent + "  }";
  return out + (r.shards.empty() ? "]" : "\n" + indent + "]");
}

const Json& member(const Json& object, const std::string& key, Json::Kind kind) {
  const Json& v = object[key];
  if (v.kind != kind) throw std::runtime_error("'" + key + "' is of the wrong type");
  return v;
}

// Strings are written in printable() form (json_string): read back as the
// bytes they show, so that the merge's messages escape them once.
std::string text(const Json& o, const std::string& key) {
  return bytes_of_printable(member(o, key, Json::Kind::string).string);
}

double number(const Json& o, const std::string& key) { return member(o, key, Json::Kind::number).number; }

// A count, or a shard's K or N: a whole number that fits.
std::size_t count(const Json& o, const std::string& key, double lowest = 0) {
  const double v = number(o, key);
  if (v < lowest || v != std::floor(v) || v > 9.0e15) throw std::runtime_error("'" + key + "' is not a count");
  return static_cast<std::size_t>(v);
}

RunReport from_json(const Json& o) {
  if (o.kind != Json::Kind::object) throw std::runtime_error("not a JSON object");
  const std::string schema = text(o, "schema");
  if (schema != kReportSchema)
    throw std::runtime_error("schema '" + schema + "', where this gpuimg reads '" + kReportSchema + "'");
  RunReport r;
  r.mode = text(o, "mode");
  const Json& shard = member(o, "shard", Json::Kind::object);
  r.shard.index = static_cast<int>(count(shard, "index", 1));
  r.shard.count = static_cast<int>(count(shard, "count", 1));
  if (r.shard.index > r.shard.count) throw std::runtime_error("shard index past its count");
  if (o.find("run")) r.run = text(o, "run");  // absent from reports before it
  for (const Json& d : member(o, "devices", Json::Kind::array).items) {
    if (d.kind != Json::Kind::string) throw std::runtime_error("'devices' holds a non-string");
    r.devices.push_back(bytes_of_printable(d.string));
  }
  r.files = count(o, "files");
  r.processed = count(o, "processed");
  r.failed = count(o, "failed");
  r.skipped = count(o, "skipped");
  for (const Json& f : member(o, "failures", Json::Kind::array).items) r.failures.push_back({text(f, "file"), text(f, "reason")});
  r.exit_status = static_cast<int>(count(o, "exit_status"));
  r.complete = member(o, "complete", Json::Kind::boolean).boolean;
  r.wall_seconds = number(o, "wall_seconds");
  if (r.mode == "merged")
    for (const Json& s : member(o, "shards", Json::Kind::array).items) r.shards.push_back(from_json(s));
  return r;
}

}  // namespace

std::string run_identity(const std::vector<BatchItem>& whole, const std::vector<std::string>& settings) {
  // Each part ends in a NUL, which no path or setting holds.
  std::string key;
  for (const BatchItem& item : whole) key += item.input + '\0' + item.output + '\0';
  key += '\0';
  for (const std::string& s : settings) key += s + '\0';
  return fnv1a_text(key);
}

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

RunReport read_report(const std::string& path) {
  // A million failures of a few hundred bytes each fit with room to spare.
  const std::vector<std::uint8_t> bytes = read_file(path, std::uint64_t{1} << 30, "(a report is at most 1 GiB)");
  try {
    return from_json(parse_json(std::string(bytes.begin(), bytes.end())));
  } catch (const std::runtime_error& e) {
    throw InputError(path, std::string("not a gpuimg report: ") + e.what());
  }
}

}  // namespace gpuimg
