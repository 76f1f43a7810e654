#include "batch_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <future>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "batch_run.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "made_folders.hpp"
#include "message_line.hpp"
#include "report_errors.hpp"
#include "stop_signals.hpp"
#include "utf8_text.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool interrupted() { return stop_signal() != 0; }

// Closes a descriptor this file opened; stdin is left open.
struct OwnedFd {
  int fd;
  ~OwnedFd() {
    if (fd > 0) ::close(fd);
  }
};

// The paths in `from`, one a line. poll() with a short timeout between
// reads, so that Ctrl-C stops a wait on a pipe whose writer is slow or never
// closes: the signal goes to its own thread (stop_signals.hpp), so it never
// interrupts the read.
std::vector<std::string> read_list(const std::string& from) {
  OwnedFd in{from == "-" ? 0 : ::open(from.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) throw InputError(from, "cannot open the list of files: " + errno_text(errno));
  std::string text;
  char buf[1 << 16];
  for (;;) {
    if (interrupted()) throw Interrupted();
    pollfd ready{in.fd, POLLIN, 0};
    const int n_ready = ::poll(&ready, 1, 100);
    if (n_ready < 0 && errno != EINTR) throw InputError(from, "cannot read the list of files: " + errno_text(errno));
    if (n_ready <= 0) continue;
    const ssize_t n = ::read(in.fd, buf, sizeof buf);
    if (n == 0) break;
    if (n > 0)
      text.append(buf, static_cast<std::size_t>(n));
    else if (errno != EINTR && errno != EAGAIN)
      throw InputError(from, "cannot read the list of files: " + errno_text(errno));
  }
  // find -print0 separates names with NULs, which no path can hold: read
  // by lines, the whole list would become one name, cut short where shown.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw InputError(from, "not a text list (a NUL byte at byte " + std::to_string(nul) +
                               "): --files-from reads one path a line, as find prints them without -print0");
  drop_byte_order_mark(text);  // no part of the first path
  std::vector<std::string> paths;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) paths.push_back(line);
  }
  return paths;
}

struct Counts {
  std::size_t processed = 0, failed = 0, skipped = 0;
  std::size_t done() const { return processed + failed + skipped; }
};

// "1:05" or "2:03:45".
std::string clock_text(double seconds) {
  const long t = static_cast<long>(seconds + 0.5);
  char text[32];
  if (t >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", t / 60, t % 60);
  return text;
}

// The bar, the count, the rate of the files worked on so far (skipped ones
// cost nothing, so they do not count) and the time left at that rate.
std::string progress_line(std::size_t done, std::size_t worked, std::size_t total, double seconds) {
  constexpr std::size_t kWidth = 20;
  const std::size_t filled = total ? done * kWidth / total : kWidth;
  const double rate = seconds > 0 ? static_cast<double>(worked) / seconds : 0;
  char text[160];
  std::snprintf(text, sizeof text, "[%s%s]  %zu/%zu  %.1f images/s  ETA %s", std::string(filled, '#').c_str(),
                std::string(kWidth - filled, '.').c_str(), done, total, rate,
                rate > 0 ? clock_text(static_cast<double>(total - done) / rate).c_str() : "-:--");
  return text;
}

// The one place that writes to stderr during a batch, so a failure line
// never lands in the middle of the progress line.
class Console {
 public:
  // `terminal`: the line is redrawn in place; else (--progress into a file
  // or a pipe) each new count is a line of its own, no control codes in it.
  Console(bool progress, bool terminal) : progress_(progress), terminal_(terminal) {}

  // Once the files are found; the clock starts here.
  void set_total(std::size_t total) {
    std::lock_guard<std::mutex> lock(mutex_);
    total_ = total;
    start_ = Clock::now();
  }

  void count(Outcome outcome, const std::string& problem) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (outcome == Outcome::processed) ++counts_.processed;
    if (outcome == Outcome::failed) {
      ++counts_.failed;
      clear_line();
      print_message(problem);
      drawn_ = false;
    }
  }
  void skip() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++counts_.skipped;
  }
  void line(const std::string& text) { lines({text}); }
  // Together: the progress line is not drawn between them.
  void lines(const std::vector<std::string>& texts) {
    std::lock_guard<std::mutex> lock(mutex_);
    clear_line();
    for (const std::string& text : texts) print_message(text);
    drawn_ = false;
  }
  Counts counts() {
    std::lock_guard<std::mutex> lock(mutex_);
    return counts_;
  }
  std::size_t total() {
    std::lock_guard<std::mutex> lock(mutex_);
    return total_;
  }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  // "[#######.............]  120/4000  85.3 images/s  ETA 0:45", one line
  // rewritten in place.
  void draw() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!progress_) return;
    const std::size_t done = counts_.done();
    const std::string text = progress_line(done, counts_.processed + counts_.failed, total_, seconds());
    if (!terminal_) {
      if (done == logged_done_) return;
      std::fprintf(stderr, "%s\n", text.c_str());
      logged_done_ = done;
      return;
    }
    std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
  // One line per GPU when there are several: which did what.
  void per_device(const std::vector<int>& devices, const std::vector<std::size_t>& images) {
    std::lock_guard<std::mutex> lock(mutex_);
    clear_line();
    std::string text;
    for (std::size_t i = 0; i < images.size(); ++i)
      text += (i ? "; GPU " : "GPU ") + std::to_string(devices[i]) + ": " + std::to_string(images[i]) + " images";
    std::fprintf(stderr, "gpuimg: %s\n", text.c_str());
    drawn_ = false;
  }
  // `failed_fast`: --fail-fast stopped the run, which says how much it left.
  void summary(bool interrupted, bool failed_fast = false) {
    std::lock_guard<std::mutex> lock(mutex_);
    clear_line();
    const double t = seconds();
    const double rate = t > 0 ? static_cast<double>(counts_.processed) / t : 0;
    if (interrupted) std::fprintf(stderr, "gpuimg: interrupted; the files not yet written were left alone\n");
    if (const std::size_t left = total_ - counts_.done(); failed_fast && !interrupted && left > 0)
      std::fprintf(stderr, "gpuimg: --fail-fast: stopped at the first failure; %zu %s not processed\n", left,
                   left == 1 ? "file" : "files");
    std::fprintf(stderr, "gpuimg: %zu processed, %zu failed, %zu skipped in %.2f s (%.1f images/s)\n",
                 counts_.processed, counts_.failed, counts_.skipped, t, rate);
  }

 private:
  void clear_line() {
    if (drawn_) std::fprintf(stderr, "\r\x1b[K");
  }
  std::mutex mutex_;
  bool progress_, terminal_;
  bool drawn_ = false;
  std::size_t logged_done_ = SIZE_MAX;  // the count last written as a line of its own
  std::size_t total_ = 0;
  Clock::time_point start_ = Clock::now();
  Counts counts_;
};

// Draws the progress line at once, then five times a second until stopped,
// and once more at the end: the last count is the whole batch's.
class ProgressTicker {
 public:
  explicit ProgressTicker(Console& console) : console_(console) {
    console_.draw();
    thread_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return done_; })) console_.draw();
    });
  }
  ~ProgressTicker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
    console_.draw();
  }

 private:
  Console& console_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

// The backend and, on the GPU, the devices to spread over.
struct Where {
  Backend backend;
  std::vector<int> devices = {0};
};

Where choose(const BatchCommand& cmd) {
  if (!cmd.devices.given()) return {select_backend(cmd.device).backend};
  return {Backend::cuda, resolve_devices(cmd.devices)};
}

// Everything but the files that decides what a run writes: its
// operations, and the options of reading and writing them.
std::vector<std::string> run_settings(const BatchCommand& cmd) {
  const ReadOptions& r = cmd.read;
  const WriteOptions& w = cmd.write;
  std::vector<std::string> settings = {
      "format " + cmd.format,
      "frame " + std::to_string(r.frame),
      "auto-orient " + std::to_string(r.auto_orient),
      "max-pixels " + std::to_string(r.max_pixels),
      "jpeg " + std::to_string(w.jpeg_quality) + " " + std::to_string(static_cast<int>(w.jpeg_subsample)),
      "webp " + std::to_string(w.webp_quality),
      "png " + std::to_string(w.png_level),
      "strip " + std::to_string(w.strip),
      "depth " + (w.depth ? std::to_string(static_cast<int>(*w.depth)) : std::string("-"))};
  for (const OpRecord& stage : cmd.pipeline) settings.push_back(describe(stage));
  return settings;
}

// Finding the files: the list, the folder walks, --skip-existing's checks;
// and the run's identity, for its report. Throws Interrupted at Ctrl-C.
std::vector<BatchItem> find_work(const BatchCommand& cmd, Console& console, std::string& run) {
  Sources sources = cmd.sources;
  if (!cmd.files_from.empty()) sources.listed = read_list(cmd.files_from);
  std::vector<BatchItem> planned = plan_batch(sources, cmd.output_dir, cmd.format, interrupted);
  // Every file of the batch, not only this shard's or those not skipped:
  // another shard, or a later run, reads or writes the others.
  if (!cmd.report.empty()) {
    run = run_identity(planned, run_settings(cmd));
    std::vector<std::string> files = {cmd.files_from};
    for (const BatchItem& item : planned) files.insert(files.end(), {item.input, item.output});
    refuse_report_over(cmd.report, files);
  }
  // A folder named wrong (or still empty) would otherwise pass as a run.
  if (planned.empty() && !cmd.quiet) console.line("warning: no image files found in the inputs given (-q: no warnings)");
  const std::vector<BatchItem> items = take_shard(planned, cmd.shard);
  console.set_total(items.size());
  // An output already there is skipped before anything is read.
  std::vector<BatchItem> todo;
  std::error_code ec;
  for (const BatchItem& item : items) {
    if (interrupted()) throw Interrupted();
    if (cmd.skip_existing && item.problem.empty() && fs::exists(item.output, ec))
      console.skip();
    else
      todo.push_back(item);
  }
  return todo;
}

std::vector<std::string> device_names(const Where& where) {
  if (where.backend == Backend::cpu) return {"cpu"};
  std::vector<std::string> names;
  for (const int d : where.devices) names.push_back("cuda:" + std::to_string(d));
  return names;
}

// The folder of a --report inside the output folder, which the batch makes
// (so the first run into a new out/ may keep its report in it); empty for
// a report elsewhere, whose folder must already be there.
fs::path report_folder_made(const BatchCommand& cmd) {
  if (cmd.report.empty()) return {};
  const fs::path folder = entry_path(cmd.report).parent_path(), output = entry_path(fs::path(cmd.output_dir) / "x").parent_path();
  const fs::path below = folder.lexically_relative(output);
  return below.empty() || *below.begin() == ".." ? fs::path() : folder;
}

// Where the report goes: as given, or into `made`, the folder the batch
// makes (out/sub/../r.json: out/r.json, whether or not out/sub is there).
std::string report_path(const BatchCommand& cmd, const fs::path& made) {
  return made.empty() ? cmd.report : (made / fs::path(cmd.report).filename()).string();
}

// --report's record of the run, once it has ended with `status`; `stopped`:
// by a signal or a GPU failure. --fail-fast leaves it incomplete by its count. A report
// that cannot be written turns a success into a failure: a scheduler's
// merge would otherwise count the shard as missing with nothing said here.
int write_run_report(const BatchCommand& cmd, Console& console, RunReport& report, int status, bool stopped) {
  if (cmd.report.empty()) return status;
  const Counts counts = console.counts();
  report.shard = cmd.shard;
  report.files = console.total();
  report.processed = counts.processed;
  report.failed = counts.failed;
  report.skipped = counts.skipped;
  report.exit_status = status;
  report.complete = !stopped && counts.done() == report.files;
  report.wall_seconds = console.seconds();
  try {
    const fs::path made = report_folder_made(cmd);
    if (std::error_code ec; !made.empty() && !fs::create_directories(made, ec) && ec)
      throw OutputError(cmd.report, "cannot create its folder: " + ec.message());
    write_report(report_path(cmd, made), report);
  } catch (const Error& e) {
    console.line(e.what());
    return status == 0 ? static_cast<int>(ExitCode::failure) : status;
  }
  return status;
}

int execute(const BatchCommand& cmd) {
  if (!cmd.report.empty() && fs::path(cmd.report).filename().empty())
    throw UsageError("--report: " + cmd.report + " names a folder; give the report a file name");
  // A report whose folder the batch will make has nothing there to check yet.
  const fs::path report_folder = report_folder_made(cmd);
  if (std::error_code ec; report_folder.empty() || fs::exists(report_folder, ec))
    if (const int status = refuse_unwritable_report(report_path(cmd, report_folder), {}); status != 0) return status;
  record_stop_signals();
  RunReport report;
  // CUDA's start-up takes tens of milliseconds: overlap it with finding the files.
  auto selection = std::async(std::launch::async, [&] { return choose(cmd); });
  const bool terminal = ::isatty(2);
  const bool progress = cmd.progress == ProgressMode::always || (cmd.progress == ProgressMode::automatic && terminal);
  Console console(progress, terminal);
  std::vector<BatchItem> todo;
  try {
    todo = find_work(cmd, console, report.run);
  } catch (const Interrupted&) {
    console.line("interrupted while finding the files; nothing was written");
    return write_run_report(cmd, console, report, 128 + stop_signal(), true);
  }
  const Where where = selection.get();
  report.devices = device_names(where);
  if (cmd.verbose)
    console.line(std::string("device: ") + (where.backend == Backend::cuda ? "cuda" : "cpu") + "; " +
                 std::to_string(todo.size()) + " files");
  // Made only now, so that a run stopped or refused before this leaves
  // nothing behind, and removed at the end if nothing was written in it.
  MadeFolders made;
  if (const int err = made.make(cmd.output_dir))
    throw OutputError(cmd.output_dir, "cannot create the output folder: " + errno_text(err));

  BatchSettings settings;
  settings.backend = where.backend;
  settings.devices = where.devices;
  settings.pipeline = cmd.pipeline;
  settings.read = cmd.read;
  settings.write = cmd.write;
  settings.jobs = cmd.jobs;
  std::atomic<bool> failed_fast{false};
  const auto stop = [&] { return interrupted() || failed_fast; };
  const auto count = [&](const BatchItem& item, Outcome outcome, const std::string& problem,
                         const std::vector<std::string>& ignored) {
    std::vector<std::string> lines;
    if (!cmd.quiet)
      for (const std::string& what : ignored) lines.push_back(metadata_warning(item.input, what));
    if (cmd.verbose && outcome == Outcome::processed)
      lines.push_back(item.input + " -> " + item.output + (problem.empty() ? "" : " (" + problem + ")"));
    if (!lines.empty()) console.lines(lines);
    console.count(outcome, problem);
    if (outcome == Outcome::failed) report.failures.push_back(file_failure(item.input, problem));
    if (outcome == Outcome::failed && cmd.fail_fast) failed_fast = true;
  };
  try {
    std::optional<ProgressTicker> ticker;
    if (progress) ticker.emplace(console);
    const std::vector<std::size_t> per_device = run_batch(todo, settings, stop, count);
    if (per_device.size() > 1) console.per_device(where.devices, per_device);
  } catch (const DeviceError& e) {
    console.line(e.what());
    console.summary(false);
    return write_run_report(cmd, console, report, static_cast<int>(ExitCode::device), true);
  }
  const int signo = end_recording_stop_signals();
  console.summary(signo != 0, failed_fast);
  if (signo != 0) return write_run_report(cmd, console, report, 128 + signo, true);
  const bool failed = console.counts().failed > 0;
  return write_run_report(cmd, console, report, static_cast<int>(failed ? ExitCode::failure : ExitCode::ok), false);
}

}  // namespace

int run_batch_command(const BatchCommand& cmd) {
  return report_errors("", [&] { return execute(cmd); });
}

}  // namespace gpuimg
