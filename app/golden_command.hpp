#pragma once
// `gpuimg golden check|update MANIFEST`: every case of a manifest
// (manifest.hpp) run in this process, compared with its golden or written
// as its new golden.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "backend.hpp"
#include "image.hpp"
#include "pipeline.hpp"

namespace gpuimg {

struct GoldenCommand {
  bool update = false;  // else check
  std::string manifest;
  std::vector<std::string> cases;  // only these cases, by NAME, in the manifest's order; empty: every case
  DeviceChoice device = DeviceChoice::automatic;
  std::string diff_dir;  // check: a difference picture per failing case, NAME.diff.png
  std::string junit;     // check: a JUnit XML file of the results; empty: none
  bool json = false;     // check: the results as one JSON document instead of the table
  bool github = false;   // check: GitHub Actions ::error lines after the results
  std::string html;      // check: a folder for index.html and each failing case's images; empty: none
  bool prune = false;    // update: remove PNGs beside the manifest that no case names
  bool quiet = false;    // -q: only the cases that did not pass, and the summary line
  bool verbose = false;  // -v: also the device the cases ran on, on stderr
};

class GoldenCli {
 public:
  explicit GoldenCli(CLI::App& parent);
  GoldenCli(const GoldenCli&) = delete;
  GoldenCli& operator=(const GoldenCli&) = delete;
  bool chosen() const { return sub_->parsed(); }
  GoldenCommand command() const;  // after parsing; throws UsageError

 private:
  CLI::App* sub_;
  CLI::App* update_;
  GoldenCommand cmd_;
  std::string device_ = "auto";
  std::string format_ = "text";
};

// A case's ARGS: operations as on the command line, and --depth, the
// processing command's one output option that changes the samples a
// golden holds (a golden is a PNG, which holds both depths, so no
// encoder option would change what is compared).
struct CaseArgs {
  Pipeline pipeline;
  std::optional<Depth> depth;
};

// Throws UsageError naming what is wrong, as the command line would.
CaseArgs parse_case_args(const std::vector<std::string>& words);

// Prints a table on stdout, errors on stderr; returns a CompareExit: 0 every
// case passed (or was written), 1 a case failed, 2 an error.
int run_golden(const GoldenCommand& cmd);

}  // namespace gpuimg
