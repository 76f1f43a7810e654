#pragma once
// `gpuimg report merge A.json B.json ... [--json]`: the reports of a run
// split over shards (--report), as one summary.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpuimg {

struct ReportCommand {
  std::vector<std::string> reports;
  bool json = false;
};

// The `report` subcommand of `parent`; its options are bound to members,
// so it stays where it was built.
class ReportCli {
 public:
  explicit ReportCli(CLI::App& parent);
  ReportCli(const ReportCli&) = delete;
  ReportCli& operator=(const ReportCli&) = delete;
  bool chosen() const { return sub_->parsed(); }
  ReportCommand command() const { return cmd_; }

 private:
  CLI::App* sub_;
  ReportCommand cmd_;
};

// Prints the summary on stdout (a table, or JSON), each failed file and
// each shard that did not finish on stderr. Returns 0, 1 (a file failed or
// a shard did not finish) or 2 (a report missing, unreadable, of another
// schema, or shards that do not fit together).
int run_report(const ReportCommand& cmd);

}  // namespace gpuimg
