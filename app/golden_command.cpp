#include "golden_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <utility>
#include <set>

#include <unistd.h>

#include "check_report.hpp"
#include "cli.hpp"
#include "compare_command.hpp"
#include "diff_image.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "html_report.hpp"
#include "planned_read.hpp"
#include "manifest.hpp"
#include "message_line.hpp"
#include "near_miss.hpp"
#include "report_errors.hpp"
#include "op_options.hpp"
#include "pixel_convert.hpp"
#include "printable.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;

// The manifest and every input, golden and mask it names: what --prune
// keeps, and what no picture or report of a run may replace.
std::set<fs::path> files_named(const Manifest& m) {
  std::set<fs::path> named{entry_path(m.path)};
  for (const GoldenCase& gc : m.cases) {
    named.insert({entry_path(gc.golden), entry_path(gc.input)});
    if (!gc.scope.mask.empty()) named.insert(entry_path(gc.scope.mask));
  }
  return named;
}

// Refused before any case runs: a --diff-dir or --html in the manifest's
// folder would replace (or, for a case that passes, remove) a file named
// NAME.diff.png there, and a --junit could be the manifest itself.
void refuse_replacing_named_files(const GoldenCommand& cmd, const Manifest& m) {
  const std::set<fs::path> named = files_named(m);
  const auto refuse = [&](const char* option, const fs::path& path, const char* other) {
    if (named.count(entry_path(path)))
      throw UsageError(std::string(option) + ": would replace " + path.string() +
                       ", which the manifest names; give it another " + other);
  };
  if (!cmd.junit.empty()) refuse("--junit", cmd.junit, "file");
  if (cmd.update) return;
  if (!cmd.html.empty()) refuse("--html", fs::path(cmd.html) / "index.html", "folder");
  for (const GoldenCase& gc : m.cases) {
    if (!cmd.diff_dir.empty()) refuse("--diff-dir", fs::path(cmd.diff_dir) / (gc.name + ".diff.png"), "folder");
    if (!cmd.html.empty())
      for (const char* which : {"expected", "actual", "diff"})
        refuse("--html", fs::path(cmd.html) / html_image_name(gc.name, which), "folder");
  }
}

// What each case reads, its input and its mask, named for messages: by
// entry (files_named's spelling) and, where the file is a link, by the
// entry it leads to, which writing a golden over would replace.
std::map<fs::path, std::pair<const GoldenCase*, const char*>> files_read(const Manifest& m) {
  std::map<fs::path, std::pair<const GoldenCase*, const char*>> read;
  const auto add = [&](const fs::path& file, const GoldenCase& gc, const char* what) {
    read.emplace(entry_path(file), std::pair{&gc, what});
    std::error_code ec;
    if (const fs::path real = fs::canonical(file, ec); !ec) read.emplace(entry_path(real), std::pair{&gc, what});
  };
  for (const GoldenCase& gc : m.cases) {
    add(gc.input, gc, "input");
    if (!gc.scope.mask.empty()) add(gc.scope.mask, gc, "mask");
  }
  return read;
}

// Refused before any golden is written: update writing a case's golden
// over a file another case reads (or its own mask) would destroy it, and
// the case reading it would then take the other's output, or not, as the
// manifest's order falls. A case's own input is run_case's error, below.
// Every case of the manifest counts, not only the `names` updated.
void refuse_goldens_over_read_files(const Manifest& whole, const std::vector<std::string>& names) {
  const auto read = files_read(whole);
  for (const GoldenCase& gc : whole.cases) {
    if (!names.empty() && std::find(names.begin(), names.end(), gc.name) == names.end()) continue;
    const auto it = read.find(entry_path(gc.golden));
    if (it == read.end()) continue;
    const auto [reader, what] = it->second;
    if (reader == &gc && std::string(what) == "input") continue;
    throw UsageError(whole.path.string() + ":" + std::to_string(gc.line) + ": " + gc.name + "'s golden " +
                     gc.golden.string() + " is also " +
                     (reader == &gc ? std::string("its own mask, which update would replace: give the mask another name")
                                    : "the " + std::string(what) + " of " + reader->name + " (line " +
                                          std::to_string(reader->line) +
                                          "), which update would replace: give one of the two another name"));
  }
}

// A case whose golden is its input is broken either way: update would
// overwrite the input, as processing never does (check_output_path), and
// check would compare the output with the input itself.
// --depth converts the output as writing it does (write_image), so that a
// golden holds what the processing command would write.
Image run_case(const GoldenCase& c, const CaseArgs& a, Backend backend) {
  if (same_file(c.input.string(), c.golden.string()))
    throw UsageError(c.golden.string() + ": is also this case's input; gpuimg never overwrites its input");
  Image img = read_planned(c.input.string(), a.pipeline, ReadOptions{}).image;
  run_pipeline(backend, img, a.pipeline);
  if (a.depth && *a.depth != img.depth) img = convert_layout(img, img.channels, *a.depth);
  return img;
}

// The case column: 36 wide, or the longest name's, so that every row lines up.
int name_width(const Manifest& m) {
  std::size_t w = 36;
  for (const GoldenCase& gc : m.cases) w = std::max(w, gc.name.size());
  return static_cast<int>(w);
}

void print_row(int width, const std::string& name, const char* result, const Comparison* c, const std::string& note) {
  std::string max_diff = "-", differing = "-", psnr = "-", ssim = "-";
  if (c && c->mismatch.empty()) {
    max_diff = std::to_string(c->overall.max_diff);
    differing = std::to_string(c->overall.differing);
    psnr = number_text(c->overall.psnr).substr(0, 8);
    if (c->has_ssim()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.6f", c->overall.ssim);
      ssim = buf;
    }
  }
  std::printf("%-*s %-6s %8s %10s %8s %8s%s\n", width, name.c_str(), result, max_diff.c_str(), differing.c_str(),
              psnr.c_str(), ssim.c_str(), note.empty() ? "" : ("  " + printable(note)).c_str());
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? buf : "localhost";
}

// The difference picture a failing case's reports ask for: --diff-dir's
// file, and the --html page's copy with the images it is made from, as
// they were before apply_scope dropped or copied anything.
void write_pictures(const GoldenCommand& cmd, const GoldenCase& gc, const Image& golden, const Image& actual,
                    const std::optional<std::pair<Image, Image>>& shown, CaseResult& r) {
  const bool pictured = r.comparison->mismatch.empty();
  const Image picture =
      pictured && (!cmd.diff_dir.empty() || shown) ? diff_image(golden, actual, *r.comparison) : Image();
  if (pictured && !cmd.diff_dir.empty()) {
    r.diff = (fs::path(cmd.diff_dir) / (gc.name + ".diff.png")).string();
    write_image(r.diff, picture);
  }
  if (!shown) return;
  const auto in_html = [&](const char* which) {
    return (fs::path(cmd.html) / html_image_name(gc.name, which)).string();
  };
  write_image(in_html("expected"), shown->first);
  write_image(in_html("actual"), shown->second);
  if (pictured) write_image(in_html("diff"), picture);
}

// The pictures an earlier run left of a case: this run's failing cases
// write theirs anew, and a case that now passes or errs must not seem to
// have failed in this one.
void remove_pictures(const GoldenCommand& cmd, const GoldenCase& gc) {
  std::error_code ignored;
  if (!cmd.diff_dir.empty()) fs::remove(fs::path(cmd.diff_dir) / (gc.name + ".diff.png"), ignored);
  if (!cmd.html.empty())
    for (const char* which : {"expected", "actual", "diff"})
      fs::remove(fs::path(cmd.html) / html_image_name(gc.name, which), ignored);
}

CaseResult check_case(const GoldenCommand& cmd, const GoldenCase& gc, const CaseArgs& p, Backend backend) {
  remove_pictures(cmd, gc);
  CaseResult r{&gc, CaseResult::Outcome::pass, {}, std::nullopt, {}, 0};
  const auto start = std::chrono::steady_clock::now();
  try {
    Image actual = run_case(gc, p, backend);
    // The hint names the case: update without names would also rewrite
    // the goldens of cases that fail, accepting what they now make.
    if (std::error_code ec; !fs::exists(gc.golden, ec))
      throw InputError(gc.golden.string(), "no such file: no golden yet (gpuimg golden update " + cmd.manifest + " " +
                                               gc.name + " makes it)");
    Image golden = read_image(gc.golden.string());
    const std::optional<std::pair<Image, Image>> shown =
        cmd.html.empty() ? std::nullopt : std::make_optional(std::make_pair(golden, actual));
    const Image mask = gc.scope.mask.empty() ? Image() : read_image(gc.scope.mask);
    std::vector<std::size_t> anti_aliased;
    std::vector<std::string> notes =
        apply_scope(golden, actual, gc.scope, gc.scope.mask.empty() ? nullptr : &mask, &anti_aliased);
    r.comparison = compare_images(golden, actual, backend, ssim_needed(gc.limits));
    r.comparison->notes = std::move(notes);
    r.comparison->anti_aliased = std::move(anti_aliased);
    r.reasons = failures(*r.comparison, gc.limits);
    if (!r.reasons.empty()) {
      r.outcome = CaseResult::Outcome::fail;
      write_pictures(cmd, gc, golden, actual, shown, r);
    }
  } catch (const Error& e) {
    r = {&gc, CaseResult::Outcome::error, {e.what()}, std::nullopt, {}, 0};
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void print_case(int width, const CaseResult& r) {
  std::string note = case_message(r);
  if (r.comparison)
    for (const std::string& n : r.comparison->notes) note += (note.empty() ? "note: " : "; note: ") + n;
  const char* result = r.outcome == CaseResult::Outcome::pass ? "pass"
                       : r.outcome == CaseResult::Outcome::fail ? "FAIL"
                                                                 : "error";
  print_row(width, r.golden_case->name, result, r.comparison ? &*r.comparison : nullptr, note);
  std::fflush(stdout);
}

int check(const GoldenCommand& cmd, const Manifest& m, const std::vector<CaseArgs>& p, Backend backend) {
  CheckRun run{&m, backend == Backend::cuda ? "cuda" : "cpu", utc_now(), host_name(), {}};
  const int width = name_width(m);
  // The table shows each case as it ends, so a long run shows its progress.
  if (!cmd.json && !cmd.quiet)
    std::printf("%-*s %-6s %8s %10s %8s %8s  %s\n", width, "case", "result", "max diff", "differing", "PSNR dB", "SSIM",
                "why");
  for (std::size_t i = 0; i < m.cases.size(); ++i) {
    run.cases.push_back(check_case(cmd, m.cases[i], p[i], backend));
    const bool passed = run.cases.back().outcome == CaseResult::Outcome::pass;
    if (!cmd.json && !(cmd.quiet && passed)) print_case(width, run.cases.back());
  }
  if (cmd.json)
    std::fputs(check_json(run).c_str(), stdout);
  else
    std::printf("%s\n", check_counts(run).c_str());
  if (cmd.github) std::fputs(github_annotations(run).c_str(), stdout);
  std::fflush(stdout);
  if (!cmd.junit.empty()) {
    const std::string xml = junit_xml(run);
    write_file_atomically(cmd.junit, std::vector<std::uint8_t>(xml.begin(), xml.end()));
  }
  if (!cmd.html.empty()) {
    const std::string page = html_report(run);
    write_file_atomically((fs::path(cmd.html) / "index.html").string(),
                          std::vector<std::uint8_t>(page.begin(), page.end()));
  }
  if (run.count(CaseResult::Outcome::error)) return static_cast<int>(CompareExit::error);
  return static_cast<int>(run.count(CaseResult::Outcome::fail) ? CompareExit::different : CompareExit::same);
}

// Rewrites only the goldens whose samples changed, so an update after a
// change that moved nothing leaves the folder (and git) as it was.
int update(const GoldenCommand& cmd, const Manifest& m, const std::vector<CaseArgs>& p, Backend backend) {
  int errors = 0;
  std::map<std::string, int> done;  // "created", "updated", "unchanged" -> cases
  for (std::size_t i = 0; i < m.cases.size(); ++i) {
    const GoldenCase& gc = m.cases[i];
    try {
      const Image img = run_case(gc, p[i], backend);
      // A mask that check could not read is this case's error here too,
      // not news for the first check after an update that passed.
      if (!gc.scope.mask.empty()) read_image(gc.scope.mask);
      const char* what = "created";
      if (fs::exists(gc.golden)) {
        what = "updated";
        try {
          const Image golden = read_image(gc.golden.string());
          if (compare_images(golden, img, Backend::cpu, Ssim::skip).identical()) what = "unchanged";
        } catch (const InputError&) {  // an unreadable golden is replaced
        }
      }
      if (std::string(what) != "unchanged") write_image(gc.golden.string(), img);
      ++done[what];
      if (!cmd.quiet) std::printf("%-10s %s\n", what, printable(gc.golden.string()).c_str());
      std::fflush(stdout);  // each line as its case ends, as check's table
    } catch (const Error& e) {
      ++errors;
      std::fflush(stdout);
      print_message(gc.name + ": " + e.what());
    }
  }
  if (cmd.prune && errors == 0) {
    const std::set<fs::path> keep = files_named(m);
    const fs::path dir = m.path.parent_path().empty() ? fs::path(".") : m.path.parent_path();
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".png" && e.is_regular_file() && !keep.count(entry_path(e.path()))) {
        fs::remove(e.path());
        if (!cmd.quiet) std::printf("%-10s %s\n", "removed", printable(e.path().string()).c_str());
      }
  }
  // As check's last line, so that a log says what an update did at a glance.
  std::printf("%zu %s: %d created, %d updated, %d unchanged, %d %s\n", m.cases.size(),
              m.cases.size() == 1 ? "case" : "cases", done["created"], done["updated"], done["unchanged"], errors,
              errors == 1 ? "error" : "errors");
  std::fflush(stdout);
  return static_cast<int>(errors ? CompareExit::error : CompareExit::same);
}

// Created like mkdir -p, so a CI step needs no set-up line of its own.
void make_folder(const char* option, const std::string& path) {
  if (path.empty()) return;
  std::error_code ec;
  fs::create_directories(path, ec);
  if (!fs::is_directory(path))
    throw UsageError(std::string(option) + ": cannot create directory '" + path + "'" +
                     (ec ? " (" + ec.message() + ")" : std::string()));
}

// The cases cmd names, in the manifest's order, with their arguments;
// every case where it names none. A name no case has is a usage error.
void keep_named_cases(const GoldenCommand& cmd, Manifest& m, std::vector<CaseArgs>& p) {
  if (cmd.cases.empty()) return;
  std::vector<std::string> names;
  for (const GoldenCase& c : m.cases) names.push_back(c.name);
  for (const std::string& wanted : cmd.cases)
    if (std::find(names.begin(), names.end(), wanted) == names.end()) {
      const std::optional<std::string> near = near_miss(wanted, names);
      throw UsageError("no case named '" + wanted + "' in " + cmd.manifest +
                       (near ? "; did you mean " + *near + "?" : ""));
    }
  Manifest kept{m.path, {}};
  std::vector<CaseArgs> kept_args;
  for (std::size_t i = 0; i < m.cases.size(); ++i)
    if (std::find(cmd.cases.begin(), cmd.cases.end(), m.cases[i].name) != cmd.cases.end()) {
      kept.cases.push_back(m.cases[i]);
      kept_args.push_back(p[i]);
    }
  m = std::move(kept);
  p = std::move(kept_args);
}

int execute(const GoldenCommand& cmd) {
  // Every case's operations are parsed as its line is read, before any
  // case runs: a bad manifest fails as a whole, before any golden is
  // touched, its bad operations reported with its other bad lines.
  std::vector<CaseArgs> p;
  Manifest m = read_manifest(cmd.manifest, [&](const GoldenCase& c) { p.push_back(parse_case_args(c.args)); });
  if (cmd.update) refuse_goldens_over_read_files(m, cmd.cases);
  keep_named_cases(cmd, m, p);
  refuse_replacing_named_files(cmd, m);
  make_folder("--diff-dir", cmd.diff_dir);
  make_folder("--html", cmd.html);
  // Before the cases run, not after: a report that cannot be written fails the run anyway.
  if (!cmd.junit.empty()) check_report_path(cmd.junit);
  const BackendSelection where = select_backend(cmd.device);
  const Backend backend = where.backend;
  if (cmd.verbose)
    print_message(std::string("device: ") + (backend == Backend::cuda ? "cuda" : "cpu") + ", " + where.detail);
  return cmd.update ? update(cmd, m, p, backend) : check(cmd, m, p, backend);
}

// A manifest with bad lines runs no case, but a CI's test-report step
// still reads --junit: one errored testcase, "(manifest)" (no case's name
// has brackets), holds the bad lines. Never over the manifest itself.
void write_manifest_error_junit(const GoldenCommand& cmd, const ManifestError& e) {
  std::error_code ec;
  if (cmd.update || cmd.junit.empty() || fs::equivalent(cmd.junit, cmd.manifest, ec)) return;
  Manifest m{cmd.manifest, {GoldenCase{"(manifest)", {}, {}, {}, {}, {}, 0}}};
  CaseResult bad{&m.cases[0], CaseResult::Outcome::error, {}, std::nullopt, {}, 0};
  for (const InputError& line : e.lines()) bad.reasons.push_back(line.what());
  if (e.more()) bad.reasons.push_back("... and " + std::to_string(e.more()) + " more bad lines");
  const CheckRun run{&m, "none", utc_now(), host_name(), {bad}};
  const std::string xml = junit_xml(run);
  try {
    write_file_atomically(cmd.junit, std::vector<std::uint8_t>(xml.begin(), xml.end()));
  } catch (const Error& failed) {
    print_message(std::string("--junit: ") + failed.what());
  }
}

}  // namespace

CaseArgs parse_case_args(const std::vector<std::string>& words) {
  // The processing command's own options, which a case has no use for,
  // named as such rather than "not an operation": golden's own where it
  // has them, the rest as the processing command's (its --help's list,
  // less --depth, which a case takes).
  for (const std::string& w : words) {
    if (w.compare(0, 2, "--") != 0) continue;
    const std::string flag = w.substr(0, w.find('='));
    for (const char* ours : {"--device", "--verbose", "--quiet"})
      if (flag == ours) throw UsageError(flag + " goes to golden check or update, for every case");
    for (const char* setting : {"--devices", "--max-pixels", "--frame", "--quality", "--jpeg-subsample", "--png-level",
                                "--strip", "--no-auto-orient", "--list-ops", "--report", "--format", "--files-from",
                                "--files-base", "--jobs", "--shard", "--no-recursive", "--skip-existing", "--fail-fast",
                                "--progress"})
      if (flag == setting)
        throw UsageError(flag + " is a setting of the processing command: a case takes operations and --depth, and "
                                "its golden is NAME.png");
  }
  std::optional<std::string> depth;  // given empty is refused, not taken as absent
  CaseArgs a;
  a.pipeline = parse_pipeline(words, [&](CLI::App& app) { app.add_option("--depth", depth)->type_name("8|16"); });
  if (depth) a.depth = parse_depth(*depth);
  return a;
}

GoldenCli::GoldenCli(CLI::App& parent) {
  sub_ = parent.add_subcommand("golden", "Run every case of a golden manifest: check the outputs, or update them");
  sub_->require_subcommand(1);
  sub_->footer(std::string("Manifest lines: NAME | INPUT | OPERATIONS... [--depth 8|16] [| LIMIT=VALUE ...]; goldens "
                           "are NAME.png beside it.\n") +
               kCompareExitHelp);
  CLI::App* check_cmd = sub_->add_subcommand("check", "Run each case and compare it with its golden NAME.png");
  update_ = sub_->add_subcommand("update", "Run each case and write its output as its golden NAME.png");
  for (CLI::App* s : {check_cmd, update_}) {
    s->add_option("manifest", cmd_.manifest, "The manifest, e.g. data/golden/cases.txt")->required();
    s->add_option("cases", cmd_.cases, "Only these cases, by NAME (default: every case)")->type_name("NAME");
    s->add_option("--device", device_, "Where the cases run: auto, cuda (or gpu) or cpu")->type_name("auto|cuda|cpu")->default_str("auto");
    s->add_flag("-q,--quiet", cmd_.quiet, "Print only the cases that did not pass (check: and the summary line)")
        ->disable_flag_override();
    s->add_flag("-v,--verbose", cmd_.verbose, "Also name the device the cases run on, on stderr")->disable_flag_override();
  }
  check_cmd->add_option("--diff-dir", cmd_.diff_dir, "Write NAME.diff.png here for each failing case")->type_name("DIR");
  check_cmd->add_option("--junit", cmd_.junit, "Also write the results as JUnit XML, one testcase a case")
      ->type_name("FILE");
  check_cmd->add_flag("--json", cmd_.json, "Print the results as JSON (schema gpuimg-golden/1) instead of a table");
  check_cmd->add_option("--html", cmd_.html,
                        "Also write DIR/index.html: each failing case's expected, actual and difference, to flip "
                        "between; opens from disk")
      ->type_name("DIR");
  check_cmd->add_option("--format", format_, "text, or github: also one ::error annotation per failing case")
      ->type_name("text|github")
      ->default_str("text");
  check_cmd->footer(kCompareExitHelp);
  update_->footer("Exit status: 0 every golden written or unchanged, 2 error (a case that could not run or be "
                  "written; the others are still written).");
  update_->add_flag("--prune", cmd_.prune,
                    "Also remove the PNGs beside the manifest that no case names (as golden, input or mask)");
}

GoldenCommand GoldenCli::command() const {
  GoldenCommand cmd = cmd_;
  cmd.update = update_->parsed();
  cmd.device = parse_device(device_);
  if (format_ != "text" && format_ != "github")
    throw UsageError("--format: must be text or github, got '" + format_ + "'");
  cmd.github = format_ == "github";
  if (cmd.quiet && cmd.json) throw UsageError("-q and --json: give one or the other");
  // Pruning keeps what every case names; with some cases it would take the others' goldens.
  if (cmd.prune && !cmd.cases.empty()) throw UsageError("--prune takes the whole manifest: give it no case names");
  return cmd;
}

int run_golden(const GoldenCommand& cmd) {
  const int error = static_cast<int>(CompareExit::error);
  return report_errors_exiting(error, [&] {
    try {
      return execute(cmd);
    } catch (const ManifestError& e) {
      // Each bad line its own message, an expression's caret under it.
      for (const InputError& line : e.lines()) print_error(line);
      if (e.more()) print_message("... and " + std::to_string(e.more()) + " more bad lines");
      write_manifest_error_junit(cmd, e);
      return error;
    }
  });
}

}  // namespace gpuimg
