#include "golden_command.hpp"

#include <cstdio>
#include <filesystem>
#include <new>
#include <set>

#include "cli.hpp"
#include "compare_command.hpp"
#include "diff_image.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "planned_read.hpp"
#include "manifest.hpp"
#include "message_line.hpp"
#include "op_options.hpp"
#include "printable.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;

// Every case's operations, parsed before any case runs: a bad manifest
// fails as a whole, before any golden is touched.
std::vector<Pipeline> pipelines(const Manifest& m) {
  std::vector<Pipeline> out;
  for (const GoldenCase& c : m.cases) {
    try {
      out.push_back(parse_pipeline(c.args));
    } catch (const UsageError& e) {
      throw InputError(m.path.string() + ":" + std::to_string(c.line), e.what());
    }
  }
  return out;
}

// A case whose golden is its input is broken either way: update would
// overwrite the input, as processing never does (check_output_path), and
// check would compare the output with the input itself.
Image run_case(const GoldenCase& c, const Pipeline& p, Backend backend) {
  if (same_file(c.input.string(), c.golden.string()))
    throw UsageError(c.golden.string() + ": is also this case's input; gpuimg never overwrites its input");
  Image img = read_planned(c.input.string(), p, ReadOptions{}).image;
  run_pipeline(backend, img, p);
  return img;
}

void print_row(const std::string& name, const char* result, const Comparison* c, const std::string& note) {
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
  std::printf("%-36s %-6s %8s %10s %8s %8s%s\n", name.c_str(), result, max_diff.c_str(), differing.c_str(),
              psnr.c_str(), ssim.c_str(), note.empty() ? "" : ("  " + printable(note)).c_str());
}

int check(const GoldenCommand& cmd, const Manifest& m, const std::vector<Pipeline>& p, Backend backend) {
  int failed = 0, errors = 0;
  std::printf("%-36s %-6s %8s %10s %8s %8s  %s\n", "case", "result", "max diff", "differing", "PSNR dB", "SSIM",
              "why");
  for (std::size_t i = 0; i < m.cases.size(); ++i) {
    const GoldenCase& gc = m.cases[i];
    try {
      Image actual = run_case(gc, p[i], backend);
      Image golden = read_image(gc.golden.string());
      const Image mask = gc.scope.mask.empty() ? Image() : read_image(gc.scope.mask);
      std::vector<std::string> notes = apply_scope(golden, actual, gc.scope, gc.scope.mask.empty() ? nullptr : &mask);
      Comparison c = compare_images(golden, actual, backend, ssim_needed(gc.limits));
      c.notes = std::move(notes);
      const std::vector<std::string> why = failures(c, gc.limits);
      std::string note;
      for (const std::string& w : why) note += (note.empty() ? "" : ", ") + w;
      for (const std::string& n : c.notes) note += (note.empty() ? "note: " : "; note: ") + n;
      if (!why.empty() && c.mismatch.empty() && !cmd.diff_dir.empty()) {
        const std::string picture = (fs::path(cmd.diff_dir) / (gc.name + ".diff.png")).string();
        write_image(picture, diff_image(golden, actual, c));
        note += "; see " + picture;
      }
      failed += why.empty() ? 0 : 1;
      print_row(gc.name, why.empty() ? "pass" : "FAIL", &c, note);
    } catch (const Error& e) {
      ++errors;
      print_row(gc.name, "error", nullptr, e.what());
    }
  }
  std::printf("%zu cases: %zu passed, %d failed, %d errors\n", m.cases.size(), m.cases.size() - failed - errors,
              failed, errors);
  std::fflush(stdout);
  if (errors) return static_cast<int>(CompareExit::error);
  return static_cast<int>(failed ? CompareExit::different : CompareExit::same);
}

// Rewrites only the goldens whose samples changed, so an update after a
// change that moved nothing leaves the folder (and git) as it was.
int update(const GoldenCommand& cmd, const Manifest& m, const std::vector<Pipeline>& p, Backend backend) {
  int errors = 0;
  for (std::size_t i = 0; i < m.cases.size(); ++i) {
    const GoldenCase& gc = m.cases[i];
    try {
      const Image img = run_case(gc, p[i], backend);
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
      std::printf("%-10s %s\n", what, printable(gc.golden.string()).c_str());
    } catch (const Error& e) {
      ++errors;
      std::fflush(stdout);
      print_message(gc.name + ": " + e.what());
    }
  }
  if (cmd.prune && errors == 0) {
    std::set<fs::path> keep;
    for (const GoldenCase& gc : m.cases) keep.insert({fs::weakly_canonical(gc.golden), fs::weakly_canonical(gc.input)});
    const fs::path dir = m.path.parent_path().empty() ? fs::path(".") : m.path.parent_path();
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".png" && e.is_regular_file() && !keep.count(fs::weakly_canonical(e.path()))) {
        fs::remove(e.path());
        std::printf("%-10s %s\n", "removed", printable(e.path().string()).c_str());
      }
  }
  std::fflush(stdout);
  return static_cast<int>(errors ? CompareExit::error : CompareExit::same);
}

int execute(const GoldenCommand& cmd) {
  const Manifest m = read_manifest(cmd.manifest);
  const std::vector<Pipeline> p = pipelines(m);
  // Created like mkdir -p, so a CI step needs no set-up line of its own.
  if (!cmd.diff_dir.empty()) {
    std::error_code ec;
    fs::create_directories(cmd.diff_dir, ec);
    if (!fs::is_directory(cmd.diff_dir))
      throw UsageError("--diff-dir: cannot create directory '" + cmd.diff_dir + "'" +
                       (ec ? " (" + ec.message() + ")" : std::string()));
  }
  const Backend backend = select_backend(cmd.device).backend;
  return cmd.update ? update(cmd, m, p, backend) : check(cmd, m, p, backend);
}

}  // namespace

GoldenCli::GoldenCli(CLI::App& parent) {
  sub_ = parent.add_subcommand("golden", "Run every case of a golden manifest: check the outputs, or update them");
  sub_->require_subcommand(1);
  sub_->footer(std::string("Manifest lines: NAME | INPUT | OPERATIONS... [| LIMIT=VALUE ...]; goldens are NAME.png "
                           "beside it.\n") +
               kCompareExitHelp);
  CLI::App* check_cmd = sub_->add_subcommand("check", "Run each case and compare it with its golden NAME.png");
  update_ = sub_->add_subcommand("update", "Run each case and write its output as its golden NAME.png");
  for (CLI::App* s : {check_cmd, update_}) {
    s->add_option("manifest", cmd_.manifest, "The manifest, e.g. data/golden/cases.txt")->required();
    s->add_option("--device", device_, "Where the cases run: auto, cuda or cpu")->default_str("auto");
    s->footer(kCompareExitHelp);
  }
  check_cmd->add_option("--diff-dir", cmd_.diff_dir, "Write NAME.diff.png here for each failing case");
  update_->add_flag("--prune", cmd_.prune, "Also remove the PNGs beside the manifest that no case names");
}

GoldenCommand GoldenCli::command() const {
  GoldenCommand cmd = cmd_;
  cmd.update = update_->parsed();
  cmd.device = parse_device(device_);
  return cmd;
}

int run_golden(const GoldenCommand& cmd) {
  try {
    return execute(cmd);
  } catch (const Error& e) {
    std::fflush(stdout);
    print_message(e.what());
  } catch (const std::bad_alloc&) {
    print_message("out of memory");
  }
  return static_cast<int>(CompareExit::error);
}

}  // namespace gpuimg
