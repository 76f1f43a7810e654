#include "report_command.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <new>

#include "error.hpp"
#include "message_line.hpp"
#include "report_errors.hpp"
#include "run_report.hpp"

namespace gpuimg {
namespace {

struct Named {
  std::string path;
  RunReport report;
};

std::string shard_text(const Shard& s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

// Sharded reports must be one run's: the same N and run identity, each K
// once, none left out (a task that died before writing its report; its
// report of an earlier run, left in place, is another run's). Unsharded
// ones (1/1, one image or a whole folder each) are simply added up. A
// report from before the identity has none, and is not compared.
void check_shards(std::vector<Named>& named) {
  for (const Named& n : named)
    if (n.report.mode == "merged") throw InputError(n.path, "is a merged report; merge the shards' own reports");
  const auto sharded = std::find_if(named.begin(), named.end(), [](const Named& n) { return n.report.shard.count > 1; });
  if (sharded == named.end()) return;
  const int count = sharded->report.shard.count;
  // Compared with the first that has one: older reports have none.
  const auto identified = std::find_if(named.begin(), named.end(), [](const Named& n) { return !n.report.run.empty(); });
  std::vector<const Named*> seen(static_cast<std::size_t>(count) + 1, nullptr);
  for (const Named& n : named) {
    if (n.report.shard.count != count)
      throw InputError(n.path, "shard " + shard_text(n.report.shard) + ", where " + sharded->path + " is one of " +
                                   std::to_string(count));
    if (!n.report.run.empty() && n.report.run != identified->report.run)
      throw InputError(n.path, "shard " + shard_text(n.report.shard) + " of another run than " + identified->path +
                                   "'s: the files, operations, output folder or options differ (an earlier run's "
                                   "report, left where this run's shard wrote none?)");
    const Named*& first = seen[static_cast<std::size_t>(n.report.shard.index)];
    if (first) throw InputError(n.path, "shard " + shard_text(n.report.shard) + " again, as in " + first->path);
    first = &n;
  }
  for (int k = 1; k <= count; ++k)
    if (!seen[static_cast<std::size_t>(k)])
      throw Error(ExitCode::usage, "shard " + std::to_string(k) + "/" + std::to_string(count) + ": no report given");
  std::sort(named.begin(), named.end(),
            [](const Named& a, const Named& b) { return a.report.shard.index < b.report.shard.index; });
}

// The shards run side by side: the run took as long as the slowest.
RunReport merge(const std::vector<Named>& named) {
  RunReport all;
  all.mode = "merged";
  all.shard = {1, 1};
  for (const Named& n : named) {
    const RunReport& r = n.report;
    // One run's shards share their identity (those that have one); added-up runs have none.
    if (r.shard.count > 1 && all.run.empty()) all.run = r.run;
    for (const std::string& d : r.devices)
      if (std::find(all.devices.begin(), all.devices.end(), d) == all.devices.end()) all.devices.push_back(d);
    all.files += r.files;
    all.processed += r.processed;
    all.failed += r.failed;
    all.skipped += r.skipped;
    all.failures.insert(all.failures.end(), r.failures.begin(), r.failures.end());
    all.complete = all.complete && r.complete;
    all.wall_seconds = std::max(all.wall_seconds, r.wall_seconds);
    all.shards.push_back(r);
  }
  all.exit_status = all.failed > 0 || !all.complete ? static_cast<int>(ExitCode::failure) : 0;
  return all;
}

std::string row(const std::string& name, const RunReport& r) {
  std::string devices;
  for (const std::string& d : r.devices) devices += (devices.empty() ? "" : ",") + d;
  const double rate = r.wall_seconds > 0 ? static_cast<double>(r.processed) / r.wall_seconds : 0;
  char text[256];
  std::snprintf(text, sizeof text, "%-7s %-12s %9zu %9zu %7zu %7zu %9.2f %9.1f %6d\n", name.c_str(),
                printable(devices).c_str(), r.files, r.processed, r.failed, r.skipped, r.wall_seconds, rate,
                r.exit_status);
  return text;
}

std::string table(const RunReport& all) {
  std::string out = "shard   devices          files processed  failed skipped   seconds  images/s status\n";
  for (const RunReport& r : all.shards) out += row(shard_text(r.shard), r);
  return out + row("all", all);
}

int execute(const ReportCommand& cmd) {
  std::vector<Named> named;
  for (const std::string& path : cmd.reports) named.push_back({path, read_report(path)});
  check_shards(named);
  const RunReport all = merge(named);
  std::cout << (cmd.json ? run_report_json(all) : table(all)) << std::flush;
  for (const RunReport& r : all.shards) {
    for (const FileFailure& f : r.failures) print_message(f.file + ": " + f.reason + " (shard " + shard_text(r.shard) + ")");
    if (!r.complete)
      print_message("shard " + shard_text(r.shard) + " did not finish (exit status " + std::to_string(r.exit_status) +
                    "): " + std::to_string(r.files - std::min(r.files, r.processed + r.failed + r.skipped)) +
                    " of its files not tried");
  }
  return all.exit_status;
}

}  // namespace

ReportCli::ReportCli(CLI::App& parent) {
  sub_ = parent.add_subcommand("report", "Combine the --report files of a run's shards into one summary");
  sub_->require_subcommand(1);
  // Its own, or CLI11 would show the processing command's (exit statuses, examples).
  sub_->footer("gpuimg report merge r1.json r2.json ... [--json]: see gpuimg report merge --help");
  CLI::App* merge_cmd = sub_->add_subcommand("merge", "One summary of the reports given: a table, or --json");
  merge_cmd->add_option("reports", cmd_.reports, "The reports, one per shard (--report FILE)")->required();
  merge_cmd->add_flag("--json", cmd_.json, "Print one JSON document (schema gpuimg-report/1, mode merged)");
  merge_cmd->footer("Exit status: 0 every file processed or skipped; 1 a file failed or a shard did not finish, "
                    "each named on stderr; 2 a report missing, unreadable, of another schema, or shards that do "
                    "not fit together.");
}

int run_report(const ReportCommand& cmd) {
  return report_errors_exiting(static_cast<int>(ExitCode::usage), [&] { return execute(cmd); });
}

}  // namespace gpuimg
