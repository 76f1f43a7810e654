#pragma once
// `--report FILE`: what a run did, as one JSON document in the schema
// docs/report.md documents, and read back by `gpuimg report merge`. A change
// of a field's meaning or a removal bumps the schema version; new fields may
// be added within a version.
#include <cstddef>
#include <string>
#include <vector>

#include "batch_items.hpp"

namespace gpuimg {

constexpr const char* kReportSchema = "gpuimg-report/1";

struct FileFailure {
  std::string file;    // the input, as given or found
  std::string reason;  // the problem, without the file's name in front
};

struct RunReport {
  std::string mode = "batch";          // "image", "batch", or "merged" (report merge --json)
  Shard shard;
  std::string run;                     // a batch's run_identity, the same in each shard of one run; empty: unknown
  std::vector<std::string> devices;    // "cpu", "cuda:0", ...
  std::size_t files = 0;               // in this run's share, skipped ones included
  std::size_t processed = 0, failed = 0, skipped = 0;
  std::vector<FileFailure> failures;   // in the order they happened
  int exit_status = 0;
  bool complete = true;                // every file was tried: no signal, --fail-fast or GPU failure stopped it
  double wall_seconds = 0;
  std::vector<RunReport> shards;       // "merged" only: the reports merged, in shard order
};

// A batch's identity, 16 hex digits: a hash of its whole sorted list of
// inputs and outputs (before --shard) and of `settings` (its operations and
// output format), so that the shards of one command line over the same
// files share it and a report of another run does not.
std::string run_identity(const std::vector<BatchItem>& whole, const std::vector<std::string>& settings);

// "in.png: cannot decode" -> {"in.png", "cannot decode"}; a message about
// another path (the output) keeps it, as the reason.
FileFailure file_failure(const std::string& input, const std::string& message);

// One JSON object, ending in a newline.
std::string run_report_json(const RunReport& r);

// Written through a temporary renamed into place (write_file_atomically):
// a reader sees a whole report or none. Throws OutputError.
void write_report(const std::string& path, const RunReport& r);

// Reads one written by write_report or merged. Throws InputError naming
// `path`: missing, unreadable, not JSON, another schema, a field missing or
// of the wrong type.
RunReport read_report(const std::string& path);

}  // namespace gpuimg
