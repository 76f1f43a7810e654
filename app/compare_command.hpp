#pragma once
// `gpuimg compare EXPECTED ACTUAL [LIMITS] [--diff FILE] [--json]`.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "backend.hpp"
#include "codec.hpp"
#include "scope.hpp"
#include "thresholds.hpp"

namespace gpuimg {

struct CompareCommand {
  std::string expected, actual;
  std::string diff;  // where to write the difference picture; empty: none
  WriteOptions diff_write;  // its format, where --diff named one by prefix (png:diff.dat, png:-)
  bool json = false;
  bool quiet = false;    // -q: no report, the exit status alone (as cmp -s)
  bool verbose = false;  // -v: also the device that compared, on stderr
  DeviceChoice device = DeviceChoice::automatic;
  ReadOptions read;
  Thresholds limits;
  Scope scope;
};

// compare and golden exit with these, as cmp, diff and ImageMagick's compare
// do, not with the processing command's codes: CI scripts tell "differs"
// from "could not compare" by them.
enum class CompareExit : int { same = 0, different = 1, error = 2 };

// The `compare` subcommand of `parent`; its options are bound to members,
// so it stays where it was built.
class CompareCli {
 public:
  explicit CompareCli(CLI::App& parent);
  CompareCli(const CompareCli&) = delete;
  CompareCli& operator=(const CompareCli&) = delete;
  bool chosen() const { return sub_->parsed(); }
  CompareCommand command() const;  // after parsing; throws UsageError

 private:
  CLI::App* sub_;
  CompareCommand cmd_;
  std::string device_ = "auto";
  std::optional<std::string> max_pixels_;
  std::vector<std::string> ignore_;
  std::string alpha_ = "compare";  // set even when given empty, which is refused
  std::optional<std::string> threshold_;
  std::vector<std::pair<const ThresholdSpec*, std::string>> limits_;
};

// Prints the result (text or JSON) on stdout and any error as one line on
// stderr; returns a CompareExit.
int run_compare(const CompareCommand& cmd);

// The exit-status paragraph of compare's and golden's --help.
extern const char* const kCompareExitHelp;

}  // namespace gpuimg
