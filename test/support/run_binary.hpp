#pragma once
// The built gpuimg run as a user runs it: its own process, arguments passed
// straight to execve (no shell, so no quoting), stdout, stderr and the exit
// status captured. Also what the CPU and GPU CLI tests share: the golden
// cases of data/golden/cases.txt (and TempDir, from temp_dir.hpp).
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "codec.hpp"
#include "device_choice.hpp"
#include "error.hpp"
#include "image_compare.hpp"
#include "manifest.hpp"
#include "random_image.hpp"
#include "temp_dir.hpp"

namespace gpuimg::test {

namespace fs = std::filesystem;

struct RunResult {
  int status = -1;  // the exit status; 128 + N when killed by signal N, as a shell reports it
  std::string out, err;
  double seconds = 0;  // wall time from fork to reaping
  // The child's peak resident set as the kernel counts it, which includes
  // the test process's own at the fork (Linux keeps the old image's peak
  // at exec): a test comparing it keeps its own memory small.
  long peak_rss_kib = 0;
  long parent_peak_kib = 0;  // the test process's own peak at the fork
};

// Whether the child's own peak resident set was below `kib`. Where the
// count is past the test process's own peak, it is the child's alone;
// where not (all tests run in one process, which has grown), the child's
// lies hidden under the parent's and is not judged.
inline bool peak_rss_below(const RunResult& r, long kib) {
  return r.peak_rss_kib < kib || r.peak_rss_kib <= r.parent_peak_kib;
}

namespace detail {

[[noreturn]] inline void fail_errno(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) fail_errno("pipe2");
    read = fds[0];
    write = fds[1];
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    if (read >= 0) ::close(read);
    close_write();
  }
  // The parent's copy: the reader sees end-of-file only once every writer is closed.
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

// Reads both pipes as data arrives: reading one to its end first would
// deadlock on a child that fills the other's buffer (64 KB) meanwhile.
inline void drain(Pipe& out, Pipe& err, RunResult& r) {
  pollfd fds[2] = {{out.read, POLLIN, 0}, {err.read, POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open = 2;
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      fail_errno("poll");
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // poll skips negative descriptors
        --open;
      }
    }
  }
}

}  // namespace detail

struct RunOptions {
  fs::path cwd;  // empty: the test's own
  // Files the binary writes fail past this size (RLIMIT_FSIZE, with SIGXFSZ
  // ignored so write() reports EFBIG instead of killing it): a full disk,
  // reproducibly. 0: no limit.
  rlim_t max_file_bytes = 0;
  std::vector<std::string> env = {};  // NAME=VALUE, added to (or replacing in) the test's own environment
  std::optional<std::string> stdin_bytes = {};  // fed through a pipe; none: stdin is /dev/null
};

namespace detail {

// Writes `bytes` into the pipe's write end from a thread, then closes it; a
// child that stops reading ends the write (EPIPE, SIGPIPE blocked in the
// thread) rather than the test.
inline std::thread feed(Pipe& pipe, std::string bytes) {
  const int fd = pipe.write;
  pipe.write = -1;
  return std::thread([fd, bytes = std::move(bytes)] {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    for (std::size_t at = 0; at < bytes.size();) {
      const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
}

}  // namespace detail

// Runs `program` (a path) with `args`, stdin /dev/null or options.stdin_bytes.
inline RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                             const RunOptions& options = {}) {
  // Everything the child needs is built before fork: allocating between
  // fork and exec is unsafe in a process with other threads.
  std::vector<std::string> words = {program};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_words = options.env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('=') + 1);
    const auto overridden = [&](const std::string& w) { return w.compare(0, name.size(), name) == 0; };
    if (std::none_of(options.env.begin(), options.env.end(), overridden)) env_words.push_back(entry);
  }
  std::vector<char*> envp;
  for (std::string& w : env_words) envp.push_back(w.data());
  envp.push_back(nullptr);
  const std::string dir = options.cwd.string();
  const rlimit file_limit = {options.max_file_bytes, options.max_file_bytes};
  const std::string exec_failed = "run_program: cannot start " + program + "\n";

  detail::Pipe in, out, err;
  const int stdin_fd = options.stdin_bytes ? in.read : -1;
  RunResult r;
  rusage own{};
  ::getrusage(RUSAGE_SELF, &own);
  r.parent_peak_kib = own.ru_maxrss;
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) detail::fail_errno("fork");
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDONLY);
    const bool limited = options.max_file_bytes == 0 ||
                         (::signal(SIGXFSZ, SIG_IGN) != SIG_ERR && ::setrlimit(RLIMIT_FSIZE, &file_limit) == 0);
    const bool ready = null >= 0 && ::dup2(stdin_fd >= 0 ? stdin_fd : null, 0) == 0 &&
                       ::dup2(out.write, 1) == 1 && ::dup2(err.write, 2) == 2 && (dir.empty() || ::chdir(dir.c_str()) == 0) && limited;
    if (ready) ::execve(argv[0], argv.data(), envp.data());
    ssize_t ignored = ::write(err.write, exec_failed.data(), exec_failed.size());
    (void)ignored;
    ::_exit(127);
  }
  out.close_write();
  err.close_write();
  // The parent's read end closed, so a child that exits unread ends the feed.
  ::close(in.read);
  in.read = -1;
  std::thread feeder = options.stdin_bytes ? detail::feed(in, *options.stdin_bytes) : std::thread();
  detail::drain(out, err, r);
  if (feeder.joinable()) feeder.join();
  int status = 0;
  rusage usage {};
  while (::wait4(pid, &status, 0, &usage) < 0)
    if (errno != EINTR) detail::fail_errno("wait4");
  r.peak_rss_kib = usage.ru_maxrss;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

// Runs the built gpuimg with `args`, stdin /dev/null or options.stdin_bytes.
inline RunResult run_binary(const std::vector<std::string>& args, const RunOptions& options = {}) {
  return run_program(GPUIMG_BINARY, args, options);
}

inline fs::path data_dir() { return GPUIMG_DATA_DIR; }
inline fs::path golden_dir() { return data_dir() / "golden"; }

// One case of data/golden/cases.txt, read by the library's manifest reader
// (manifest.hpp), the one `gpuimg golden` uses. The golden is
// data/golden/NAME.png, made by `gpuimg golden update` with --device cpu.
struct GoldenCase {
  std::string name;   // also the test's name: letters, digits and '_'
  std::string input;  // absolute
  std::vector<std::string> args;
};

// The command, for messages; the test's name already holds the case's name.
inline void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << "gpuimg " << c.input;
  for (const std::string& a : c.args) *os << " " << a;
}

struct GoldenManifest {
  std::vector<GoldenCase> cases;
  std::vector<std::string> problems;  // why the manifest could not be used
};

// A bad manifest becomes a problem for the manifest test to report:
// throwing here, while tests are being registered, would abort the whole
// test binary.
inline GoldenManifest read_golden_manifest() {
  GoldenManifest m;
  try {
    for (const gpuimg::GoldenCase& c : read_manifest(golden_dir() / "cases.txt").cases)
      m.cases.push_back({c.name, c.input.string(), c.args});
  } catch (const Error& e) {
    m.problems.push_back(e.what());
  }
  return m;
}

inline std::string golden_case_name(const testing::TestParamInfo<GoldenCase>& info) { return info.param.name; }

// Runs one golden case on `device` and compares the decoded output with its
// golden, sample for sample.
inline void expect_matches_golden(const GoldenCase& c, const std::string& device) {
  TempDir tmp;
  const fs::path out = tmp / (c.name + ".png");
  std::vector<std::string> args = {(data_dir() / c.input).string()};
  args.insert(args.end(), c.args.begin(), c.args.end());
  args.insert(args.end(), {"--device", device, out.string()});
  const RunResult r = run_binary(args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(same_samples(read_image((golden_dir() / (c.name + ".png")).string()), read_image(out.string())))
      << c.name << " (" << testing::PrintToString(c) << ") on " << device << " vs its golden";
}

// A run that --device auto sends to a GPU where one is usable: an input
// written into `dir` and enough blur stages that their CPU estimate on this
// machine is twice CUDA's start-up and exit (device_choice.hpp). Returns
// INPUT and the operations; the caller adds options and OUTPUT.
inline std::vector<std::string> heavy_auto_args(const TempDir& dir) {
  const int side = 1024;
  write_image(dir.file("heavy.png"), random_image(side, side, 3, Depth::U8, 17));
  const Pipeline stage = {parse_stage("blur", {"1"})};
  const double stage_ms = estimate_cpu_ms(stage, ImageShape{side, side, 3, Depth::U8},
                                          static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<std::string> args = {dir.file("heavy.png")};
  for (int i = 0; i < static_cast<int>(std::ceil(2 * kCudaStartExitMs / stage_ms)); ++i)
    args.insert(args.end(), {"--blur", "1"});
  return args;
}

// The lines of -v's output that say which device ran.
inline std::vector<std::string> device_lines(const std::string& err) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while ((at = err.find("gpuimg: device: ", at)) != std::string::npos) {
    out.push_back(err.substr(at, err.find('\n', at) - at));
    ++at;
  }
  return out;
}

}  // namespace gpuimg::test
