#include "run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <future>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "device_choice.hpp"
#include "error.hpp"
#include "expr/kernel_notes.hpp"
#include "frames.hpp"
#include "message_line.hpp"
#include "orientation.hpp"
#include "planned_read.hpp"
#include "printable.hpp"
#include "process_clock.hpp"
#include "report_errors.hpp"
#include "run_report.hpp"

namespace gpuimg {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

void print_plan(const Command& cmd, const Shape& input, const BackendSelection& where, const RunTimes& t,
                double decode_ms, double device_ms) {
  // The passes as the backend that ran them grouped the stages.
  const Pipeline planned = plan_pipeline(cmd.pipeline, input, UINT64_MAX, printable(cmd.input),
                                         where.backend == Backend::cuda ? PlanFor::cuda : PlanFor::cpu);
  // Which frame or page of several, where --frame picked one.
  const std::string frame = cmd.read.frame == kNoFrame ? "" : ", frame " + std::to_string(cmd.read.frame);
  std::fprintf(stderr, "gpuimg: %s: %s%s, decoded in %.1f ms\n", printable(cmd.input).c_str(),
               describe(input).c_str(), frame.c_str(), decode_ms);
  std::fprintf(stderr, "gpuimg: device: %s, %s (ready %.1f ms after start)\n",
               where.backend == Backend::cuda ? "cuda" : "cpu", where.detail.c_str(), device_ms);
  for (const std::string& note : runtime_kernel_notes()) print_message(note);
  if (where.backend == Backend::cuda) std::fprintf(stderr, "gpuimg: upload %.3f ms\n", t.upload_ms);
  // The stages' names in one column and their times in the next: "stage
  // 9:" padded after its colon (scripts read "stage N: NAME"), the names
  // to the longest up to kNameColumn (a long --map or --convolve runs past
  // it on its own line, not every line).
  constexpr int kNameColumn = 40;
  std::vector<std::string> names;
  int width = 0;
  for (const OpRecord& rec : planned) {
    names.push_back(printable(describe(rec)));
    width = std::min(kNameColumn, std::max(width, static_cast<int>(names.back().size())));
  }
  const int label_width = static_cast<int>(("stage " + std::to_string(planned.size()) + ":").size());
  const auto label = [&](std::size_t i) { return "stage " + std::to_string(i + 1) + ":"; };
  std::size_t pass = 0;  // the stage leading the pass that the stages run in
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const OpRecord& rec = planned[i];
    if (rec.span == 0) {
      std::fprintf(stderr, "gpuimg: %-*s %-*s  in stage %zu's pass\n", label_width, label(i).c_str(), width,
                   names[i].c_str(), pass + 1);
      continue;
    }
    pass = i;
    const std::string shapes = rec.in == rec.out ? "" : "  " + describe(rec.in) + " -> " + describe(rec.out);
    const std::string fused =
        rec.span > 1 ? "  (stages " + std::to_string(i + 1) + "-" + std::to_string(i + rec.span) + ", one pass)" : "";
    std::fprintf(stderr, "gpuimg: %-*s %-*s  %.3f ms%s%s\n", label_width, label(i).c_str(), width, names[i].c_str(),
                 i < t.stage_ms.size() ? t.stage_ms[i] : 0.0, shapes.c_str(), fused.c_str());
  }
  if (where.backend == Backend::cuda) std::fprintf(stderr, "gpuimg: download %.3f ms\n", t.download_ms);
}

// Warnings for metadata set aside (unless -q), as soon as the file is read,
// so that a run that fails later still gives them.
void warn_metadata_ignored(const Command& cmd, const UprightImage& decoded) {
  if (!cmd.quiet)
    for (const std::string& item : decoded.metadata.ignored)
      print_message(metadata_warning(cmd.input, item));
}

int execute(const Command& cmd, std::string& device) {
  const auto start = Clock::now();
  check_output_path(cmd.output, {cmd.input}, cmd.write.format);

  // select_backend initialises CUDA, which took 200 to 430 ms on the H100
  // and H200 machines (scripts/bench_e2e.sh): it runs beside decoding.
  double device_ms = 0;
  std::future<BackendSelection> selection;
  auto select_beside_decoding = [&] {
    selection = std::async(std::launch::async, [&] {
      // NVRTC opens beside CUDA's start-up, on a thread joined here.
      std::future<std::string> compiler;
      if (builds_kernels(cmd.pipeline)) compiler = std::async(std::launch::async, open_runtime_compiler);
      BackendSelection s = select_backend(cmd.device);
      device_ms = ms_since(start);
      const std::string missing = compiler.valid() ? compiler.get() : "";
      // --device cuda reports a missing NVRTC from the stage that needs it
      // (exit 3); auto takes the CPU, which gives the same bytes.
      if (s.backend == Backend::cuda && !missing.empty() && cmd.device == DeviceChoice::automatic)
        s = {Backend::cpu, "auto: " + missing};
      return s;
    });
  };
  if (cmd.device != DeviceChoice::automatic) select_beside_decoding();
  const auto decode_start = Clock::now();
  const PlannedInput input = read_planned_input(cmd.input, cmd.pipeline, cmd.read);

  // auto first weighs the pipeline's CPU time, from the header's dimensions,
  // against CUDA's start-up and exit (device_choice.hpp): below them the CPU
  // runs it, and CUDA is never initialised.
  AutoDevice choice{true, ""};
  if (cmd.device == DeviceChoice::automatic) {
    choice = choose_auto_device(cmd.pipeline, input.file.shape, static_cast<int>(std::thread::hardware_concurrency()));
    if (choice.start_cuda)
      select_beside_decoding();
    else
      device_ms = ms_since(start);
  }
  UprightImage decoded = decode_planned(input, cmd.pipeline, cmd.read);
  warn_metadata_ignored(cmd, decoded);
  Image& img = decoded.image;
  const Shape input_shape = shape_of(img);
  const double decode_ms = ms_since(decode_start);
  BackendSelection where{Backend::cpu, choice.reason};
  if (selection.valid()) {
    where = selection.get();
    if (where.backend == Backend::cuda && !choice.reason.empty()) where.detail += "; " + choice.reason;
  }

  device = where.backend == Backend::cuda ? "cuda:0" : "cpu";
  RunTimes times;
  run_pipeline(where.backend, img, cmd.pipeline, &times);
  if (cmd.verbose) print_plan(cmd, input_shape, where, times, decode_ms, device_ms);
  if (cmd.verbose && decoded.turned != 1)
    print_message(cmd.input + ": orientation " + std::to_string(decoded.turned) + ": " + upright_text(decoded.turned) +
                  " (--no-auto-orient: as stored)");

  const auto encode_start = Clock::now();
  const std::vector<std::string> left_out = write_image(cmd.output, img, cmd.write, decoded.metadata);
  if (cmd.verbose)
    for (const std::string& note : left_out) print_message(cmd.output + ": " + note);
  if (cmd.verbose)
    std::fprintf(stderr, "gpuimg: %s: encoded and written in %.1f ms; %.1f ms in all, from the process's start\n",
                 printable(cmd.output).c_str(), ms_since(encode_start), ms_since_process_start());
  return static_cast<int>(ExitCode::ok);
}

}  // namespace

int run_command(const Command& cmd) {
  if (const int status = refuse_unwritable_report(cmd.report, {cmd.input, cmd.output}); status != 0) return status;
  const auto start = Clock::now();
  RunReport report;
  report.mode = "image";
  report.files = 1;
  std::string device;
  const int status = report_errors(cmd.input, [&] {
    try {
      return execute(cmd, device);
    } catch (const Error& e) {
      report.failures.push_back(file_failure(cmd.input, e.what()));
      throw;
    } catch (const std::bad_alloc&) {
      report.failures.push_back({cmd.input, "out of memory"});
      throw;
    }
  });
  if (cmd.report.empty()) return status;
  if (!device.empty()) report.devices = {device};
  report.processed = status == 0 ? 1 : 0;
  report.failed = status == 0 ? 0 : 1;
  report.exit_status = status;
  report.wall_seconds = ms_since(start) / 1000;
  return report_errors("", [&] {
    write_report(cmd.report, report);
    return status;
  });
}

}  // namespace gpuimg
