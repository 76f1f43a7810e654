#include "compare_command.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>
#include <iostream>
#include <iterator>
#include <new>

#include "cli.hpp"
#include "diff_image.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "message_line.hpp"
#include "report_errors.hpp"
#include "report_json.hpp"

namespace gpuimg {
namespace {

std::string metric_row(const char* name, const ChannelMetrics& m) {
  char ssim[32] = "-";
  if (!std::isnan(m.ssim)) std::snprintf(ssim, sizeof ssim, "%.8f", m.ssim);
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-8s %9d %11llu %10.6g %10.6g %10.6g %9s %10s\n", name, m.max_diff,
                static_cast<unsigned long long>(m.differing), m.differing_share, m.mae, m.rmse,
                number_text(m.psnr).substr(0, 9).c_str(), ssim);
  return buf;
}

std::string text_report(const CompareCommand& cmd, const Image& e, const Comparison& c) {
  const std::vector<std::string> why = failures(c, cmd.limits);
  std::string out = c.identical() ? "identical" : why.empty() ? "within limits (" + describe(cmd.limits) + ")" : "different";
  for (std::size_t i = 0; i < why.size(); ++i) out += (i ? ", " : ": ") + why[i];
  out += "\n";
  for (const std::string& note : c.notes) out += "note: " + note + "\n";
  if (!c.mismatch.empty()) return out;
  out += "channel   max diff   differing      share        MAE       RMSE   PSNR dB       SSIM\n";
  for (int ch = 0; ch < e.channels; ++ch) out += metric_row(channel_name(ch, e.channels), c.channels[ch]);
  out += metric_row("all", c.overall);
  if (!c.box.empty())
    out += "differing region: x " + std::to_string(c.box.x0) + ".." + std::to_string(c.box.x1) + ", y " +
           std::to_string(c.box.y0) + ".." + std::to_string(c.box.y1) + "\n";
  return out;
}

int execute(const CompareCommand& cmd) {
  if (!cmd.diff.empty()) {
    check_output_path(cmd.diff, {cmd.expected, cmd.actual, cmd.scope.mask}, cmd.diff_write.format);
  }
  // Decoding is most of a comparison without SSIM (about 90% of a 4000x3000
  // PNG pair's CPU time, by perf): the two files decode at once.
  std::future<Image> reading = std::async(std::launch::async, [&] { return read_image(cmd.actual, cmd.read); });
  Image expected = read_image(cmd.expected, cmd.read);
  Image actual = reading.get();
  const Image mask = cmd.scope.mask.empty() ? Image() : read_image(cmd.scope.mask, cmd.read);
  std::vector<std::size_t> anti_aliased;
  std::vector<std::string> notes =
      apply_scope(expected, actual, cmd.scope, cmd.scope.mask.empty() ? nullptr : &mask, &anti_aliased);
  const BackendSelection where = select_backend(cmd.device);
  // The JSON schema promises every metric; the table shows SSIM only when a
  // limit made it worth its cost.
  const Ssim ssim = cmd.json ? Ssim::compute : ssim_needed(cmd.limits);
  Comparison c = compare_images(expected, actual, where.backend, ssim);
  c.notes = std::move(notes);
  c.anti_aliased = std::move(anti_aliased);

  if (!cmd.diff.empty()) {
    if (c.mismatch.empty()) {
      write_image(cmd.diff, diff_image(expected, actual, c), cmd.diff_write);
    } else {
      // A picture an earlier run left there would pass for this run's (a CI
      // artifact); check_output_path above kept the inputs out of reach.
      // Not stdout ("-", a file ./- being no picture of ours) nor a device.
      std::error_code ec;
      const bool stale = !written_in_place(cmd.diff) &&
                         std::filesystem::is_regular_file(std::filesystem::symlink_status(cmd.diff, ec)) &&
                         std::filesystem::remove(cmd.diff, ec);
      print_message(cmd.diff + ": not written: the images differ in " + c.mismatch +
                    (stale ? " (the picture an earlier run left there is removed)" : ""));
    }
  }
  const char* device = where.backend == Backend::cuda ? "cuda" : "cpu";
  if (cmd.verbose) print_message(std::string("device: ") + device + ", " + where.detail);
  if (!cmd.quiet)
    std::cout << (cmd.json ? report_json({cmd.expected, cmd.actual, &expected, &actual, device, &c, &cmd.limits, &cmd.scope})
                           : text_report(cmd, expected, c));
  return static_cast<int>(failures(c, cmd.limits).empty() ? CompareExit::same : CompareExit::different);
}

}  // namespace

const char* const kCompareExitHelp =
    "Exit status: 0 identical or within every limit, 1 different (beyond a limit, or in size, channels or\n"
    "depth), 2 error (unreadable file, bad manifest or option, GPU failure). These follow cmp, diff and\n"
    "ImageMagick's compare, and differ on purpose from the processing command's (1 file error, 2 usage, 3 GPU).";

CompareCli::CompareCli(CLI::App& parent) {
  sub_ = parent.add_subcommand("compare",
                               "Compare ACTUAL with EXPECTED: per-channel metrics, limits, a difference picture");
  sub_->footer(std::string("With no limit, any difference fails. SSIM, costly, is computed only for --min-ssim or "
                           "--json.\n") + kCompareExitHelp +
               "\nExamples:\n  gpuimg compare expected.png actual.png\n"
               "  gpuimg compare expected.png actual.png --max-diff 1 --psnr 45 --diff diff.png --json\n"
               "  gpuimg compare expected.png actual.png --ignore-aa --threshold 0.1 --max-differing 20");
  sub_->add_option("expected", cmd_.expected, "The reference image")->required();
  sub_->add_option("actual", cmd_.actual, "The image to check")->required();
  sub_->add_option("--diff", cmd_.diff, "Write a picture of the differences (8-bit RGB; PNG or any writable format)")
      ->type_name("FILE");
  sub_->add_flag("--json", cmd_.json, "Print the metrics as JSON (schema gpuimg-compare/1) instead of a table");
  sub_->add_flag("-q,--quiet", cmd_.quiet, "Print nothing: the exit status alone tells (as cmp -s)")
      ->disable_flag_override();
  sub_->add_flag("-v,--verbose", cmd_.verbose, "Also name the device that compared, on stderr")->disable_flag_override();
  sub_->add_option("--device", device_, "Where SSIM runs: auto, cuda (or gpu) or cpu")->type_name("auto|cuda|cpu")->default_str("auto");
  sub_->add_option("--max-pixels", max_pixels_, "Refuse inputs with more pixels than this: a number (1e6) or WxH")
      ->type_name("N|WxH")
      ->default_str(std::to_string(ReadOptions{}.max_pixels));
  sub_->add_option("--ignore", ignore_, "Leave this rectangle out of the comparison (repeatable)")
      ->type_name("X,Y,W,H")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub_->add_option("--mask", cmd_.scope.mask, "Compare only where this image, the same size, is not black")
      ->type_name("FILE");
  sub_->add_option("--alpha", alpha_, "compare: alpha is a channel like the others; ignore: colours only")
      ->type_name("compare|ignore")
      ->default_str("compare");
  sub_->add_option("--threshold", threshold_,
                   "Count a pixel equal when its colour's YIQ distance (pixelmatch's) is at most this, 0 to 1")
      ->type_name("T");
  sub_->add_flag("--ignore-aa", cmd_.scope.ignore_aa,
                 "Leave out differing pixels on an anti-aliased edge (pixelmatch's detector; blue in --diff)");
  limits_.reserve(std::size(kThresholds));
  for (const ThresholdSpec& spec : kThresholds) {
    limits_.emplace_back(&spec, std::string());
    std::string names = std::string("--") + spec.name + (spec.alias ? std::string(",--") + spec.alias : "");
    sub_->add_option(names, limits_.back().second,
                     std::string(spec.at_least ? "Fail below this: " : "Fail above this: ") + spec.meaning)
        ->type_name("LIMIT")
        ->group("Limits (all given must hold)");
  }
}

CompareCommand CompareCli::command() const {
  CompareCommand cmd = cmd_;
  if (cmd.quiet && cmd.json) throw UsageError("-q and --json: give one or the other");
  cmd.device = parse_device(device_);
  if (max_pixels_) cmd.read.max_pixels = parse_max_pixels(*max_pixels_);
  for (const std::string& text : ignore_) cmd.scope.ignore.push_back(parse_rect("--ignore:", text));
  cmd.scope.alpha = parse_alpha_rule("--alpha:", alpha_);
  if (threshold_) cmd.scope.threshold = parse_colour_threshold("--threshold:", *threshold_);
  for (const auto& [spec, text] : limits_)
    if (sub_->count(std::string("--") + spec->name)) {
      // CLI11 does not say which of the names was typed: a bad --psnr
      // names both, so that the one typed is there.
      const std::string name =
          std::string("--") + spec->name + (spec->alias ? std::string(" (or --") + spec->alias + ")" : "") + ":";
      cmd.limits.push_back(parse_threshold_named(name, *spec, text));
    }
  return cmd;
}

int run_compare(const CompareCommand& cmd) {
  return report_errors_exiting(static_cast<int>(CompareExit::error), [&] { return execute(cmd); });
}

}  // namespace gpuimg
