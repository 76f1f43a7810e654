#include "batch_command.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "batch_run.hpp"
#include "error.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Set by the handler, read by the workers between files; nothing else
// happens in the handler. Lock-free, so safe to store to from a handler and
// seen by every thread.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_signal(int signo) { g_signal.store(signo, std::memory_order_relaxed); }

void install_signal_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in flight carry on; the batch stops between files
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

std::vector<std::string> read_list(const std::string& from) {
  std::ifstream file;
  if (from != "-") {
    file.open(from);
    if (!file) throw InputError(from, "cannot open the list of files");
  }
  std::istream& in = from == "-" ? std::cin : file;
  std::vector<std::string> paths;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) paths.push_back(line);
  }
  return paths;
}

struct Counts {
  std::size_t processed = 0, failed = 0, skipped = 0;
  std::size_t done() const { return processed + failed + skipped; }
};

// The one place that writes to stderr during a batch, so a failure line
// never lands in the middle of the progress line.
class Console {
 public:
  Console(bool progress, std::size_t total) : progress_(progress), total_(total), start_(Clock::now()) {}

  void count(Outcome outcome, const std::string& problem) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (outcome == Outcome::processed) ++counts_.processed;
    if (outcome == Outcome::failed) {
      ++counts_.failed;
      clear_line();
      std::fprintf(stderr, "gpuimg: %s\n", problem.c_str());
      drawn_ = false;
    }
  }
  void skip() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++counts_.skipped;
  }
  void line(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    clear_line();
    std::fprintf(stderr, "gpuimg: %s\n", text.c_str());
    drawn_ = false;
  }
  Counts counts() {
    std::lock_guard<std::mutex> lock(mutex_);
    return counts_;
  }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  // "  120/4000   85.3 images/s   ETA 45 s", rewritten in place.
  void draw() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!progress_) return;
    const double t = seconds();
    const std::size_t done = counts_.done();
    const double rate = t > 0 ? static_cast<double>(counts_.processed + counts_.failed) / t : 0;
    char eta[32] = "ETA ?";
    if (rate > 0) std::snprintf(eta, sizeof eta, "ETA %.0f s", static_cast<double>(total_ - done) / rate);
    std::fprintf(stderr, "\r%zu/%zu  %.1f images/s  %s\x1b[K", done, total_, rate, eta);
    std::fflush(stderr);
    drawn_ = true;
  }
  void summary(bool interrupted) {
    std::lock_guard<std::mutex> lock(mutex_);
    clear_line();
    const double t = seconds();
    const double rate = t > 0 ? static_cast<double>(counts_.processed) / t : 0;
    if (interrupted) std::fprintf(stderr, "gpuimg: interrupted; the files not yet written were left alone\n");
    std::fprintf(stderr, "gpuimg: %zu processed, %zu failed, %zu skipped in %.2f s (%.1f images/s)\n",
                 counts_.processed, counts_.failed, counts_.skipped, t, rate);
  }

 private:
  void clear_line() {
    if (drawn_) std::fprintf(stderr, "\r\x1b[K");
  }
  std::mutex mutex_;
  bool progress_;
  bool drawn_ = false;
  std::size_t total_;
  Clock::time_point start_;
  Counts counts_;
};

// Redraws the progress line five times a second until stopped.
class ProgressTicker {
 public:
  explicit ProgressTicker(Console& console) : thread_([this, &console] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!done_) {
      console.draw();
      wake_.wait_for(lock, std::chrono::milliseconds(200));
    }
  }) {}
  ~ProgressTicker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;
};

int execute(const BatchCommand& cmd) {
  install_signal_handlers();
  // CUDA's start-up takes tens of milliseconds: overlap it with finding the files.
  auto selection = std::async(std::launch::async, [&] { return select_backend(cmd.device); });
  Sources sources = cmd.sources;
  if (!cmd.files_from.empty()) sources.listed = read_list(cmd.files_from);
  std::error_code ec;
  fs::create_directories(cmd.output_dir, ec);
  if (ec) throw OutputError(cmd.output_dir, "cannot create the output folder: " + ec.message());
  if (!fs::is_directory(cmd.output_dir)) throw OutputError(cmd.output_dir, "is not a folder");

  const std::vector<BatchItem> items = take_shard(plan_batch(sources, cmd.output_dir, cmd.format), cmd.shard);
  const bool progress =
      cmd.progress == ProgressMode::always || (cmd.progress == ProgressMode::automatic && ::isatty(2));
  Console console(progress, items.size());

  // An output already there is skipped before anything is read.
  std::vector<BatchItem> todo;
  for (const BatchItem& item : items) {
    if (cmd.skip_existing && item.problem.empty() && fs::exists(item.output, ec))
      console.skip();
    else
      todo.push_back(item);
  }

  BatchSettings settings;
  settings.backend = selection.get().backend;
  settings.pipeline = cmd.pipeline;
  settings.read = cmd.read;
  settings.write = cmd.write;
  settings.jobs = cmd.jobs;
  std::atomic<bool> failed_fast{false};
  const auto stop = [&] { return g_signal.load(std::memory_order_relaxed) != 0 || failed_fast; };
  const auto report = [&](const BatchItem&, Outcome outcome, const std::string& problem) {
    console.count(outcome, problem);
    if (outcome == Outcome::failed && cmd.fail_fast) failed_fast = true;
  };
  try {
    std::optional<ProgressTicker> ticker;
    if (progress) ticker.emplace(console);
    run_batch(todo, settings, stop, report);
  } catch (const DeviceError& e) {
    console.line(e.what());
    console.summary(false);
    return static_cast<int>(ExitCode::device);
  }
  const int signo = g_signal.load();
  console.summary(signo != 0);
  if (signo != 0) return 128 + signo;
  return console.counts().failed > 0 ? static_cast<int>(ExitCode::failure) : static_cast<int>(ExitCode::ok);
}

}  // namespace

int run_batch_command(const BatchCommand& cmd) {
  try {
    return execute(cmd);
  } catch (const Error& e) {
    std::cerr << "gpuimg: " << e.what() << "\n";
    return static_cast<int>(e.code());
  }
}

}  // namespace gpuimg
