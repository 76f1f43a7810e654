// The temporary file every output is written through (write_file_atomically):
// it fits wherever the output fits, a run stopped by a signal removes it,
// and a later run removes those a killed run left.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "codec.hpp"
#include "image_compare.hpp"
#include "run_binary.hpp"
#include "temporary_file.hpp"

namespace gpuimg::test {
namespace {

// Folders under `base` whose path, with "/" and a name of `name_length`
// bytes, comes to `total` bytes: 200-byte names, then one to make up the rest.
fs::path folder_for_path_length(const fs::path& base, std::size_t name_length, std::size_t total) {
  fs::path dir = base;
  while (dir.string().size() + (1 + 200) + (1 + 1) + (1 + name_length) <= total) dir /= std::string(200, 'd');
  dir /= std::string(total - dir.string().size() - 1 - (1 + name_length), 'e');
  return dir;
}

// An output one byte under PATH_MAX: its temporary, named and made relative
// to the output's folder, fits too.
TEST(OutputTemporaries, FitWhereverTheOutputFits) {
  TempDir tmp;
  const Image input = random_image(9, 7, 3, Depth::U8, 31);
  write_image(tmp.file("in.png"), input);
  const fs::path dir = folder_for_path_length(tmp.path(), 5, PATH_MAX - 1);
  fs::create_directories(dir);
  const fs::path out = dir / "o.png";
  ASSERT_EQ(out.string().size(), static_cast<std::size_t>(PATH_MAX - 1));

  const RunResult r = run_binary({"in.png", out.string()}, {tmp.path()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(same_samples(read_image(out.string()), input));
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"o.png"});
}

// The names in `dir` that start as a temporary's.
std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(".gpuimg-tmp-", 0) == 0) out.push_back(e.path().filename().string());
  return out;
}

// Runs gpuimg with `args` in `dir` until a run is caught while a temporary
// exists in dir/out, frozen there (SIGSTOP); sends it `signo`, lets it go
// and returns its status (-1: still running 5 s after the signal). The
// outputs, 32 MiB stored, take long enough to write to be caught; a run
// whose rename comes first is run again, in an empty out/.
int status_after_signal_while_writing(const fs::path& dir, const std::vector<std::string>& args, int signo) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    fs::remove_all(dir / "out");
    fs::create_directory(dir / "out");
    Child child(args, dir);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (temporaries(dir / "out").empty() && !child.ended() && std::chrono::steady_clock::now() < deadline) {
    }
    if (!child.freeze()) continue;
    if (temporaries(dir / "out").empty()) {
      child.resume();
      child.wait(60.0);
      continue;
    }
    child.signal(signo);
    child.resume();
    return child.wait(5.0);
  }
  ADD_FAILURE() << "no run was caught writing";
  return -1;
}

const std::vector<std::string> kSlowWrite = {"--invert", "--png-level", "0", "--device", "cpu"};

// One image removes its temporary and ends by the signal. It may have been
// caught in its rename, which the signal waits for: an output there is
// whole.
void expect_the_signal_removes_the_temporary(int signo) {
  TempDir tmp;
  write_image(tmp.file("in.png"), random_image(2048, 2048, 4, Depth::U16, 41));
  std::vector<std::string> args = {"in.png"};
  args.insert(args.end(), kSlowWrite.begin(), kSlowWrite.end());
  args.push_back("out/o.png");
  EXPECT_EQ(status_after_signal_while_writing(tmp.path(), args, signo), 128 + signo);
  EXPECT_EQ(temporaries(tmp / "out"), std::vector<std::string>{});
  if (fs::exists(tmp / "out" / "o.png")) {
    EXPECT_EQ(read_image(tmp.file("out/o.png")).width, 2048);
  }
}

TEST(OutputTemporaries, CtrlCDuringAWriteRemovesTheTemporary) { expect_the_signal_removes_the_temporary(SIGINT); }

TEST(OutputTemporaries, SigtermDuringAWriteRemovesTheTemporary) { expect_the_signal_removes_the_temporary(SIGTERM); }

// The terminal closed, or the ssh session running gpuimg dropped.
TEST(OutputTemporaries, SighupDuringAWriteRemovesTheTemporary) { expect_the_signal_removes_the_temporary(SIGHUP); }

// A batch lets the write under way complete, starts no other, and exits
// 129. Of two files, so that the batch does not end with the write the
// signal came in: a signal in its last moments may be recorded after the
// batch has looked for one (the thread that takes signals runs on its own).
TEST(OutputTemporaries, SighupDuringABatchWriteLetsItComplete) {
  TempDir tmp;
  write_image(tmp.file("a.png"), random_image(2048, 2048, 4, Depth::U16, 41));
  fs::copy_file(tmp / "a.png", tmp / "b.png");
  std::vector<std::string> args = {"a.png", "b.png", "--jobs", "1"};
  args.insert(args.end(), kSlowWrite.begin(), kSlowWrite.end());
  args.push_back("out/");
  EXPECT_EQ(status_after_signal_while_writing(tmp.path(), args, SIGHUP), 129);
  EXPECT_EQ(temporaries(tmp / "out"), std::vector<std::string>{});
  EXPECT_EQ(read_image(tmp.file("out/a.png")).width, 2048);
  if (fs::exists(tmp / "out" / "b.png")) {
    EXPECT_EQ(read_image(tmp.file("out/b.png")).width, 2048);
  }
}

// A PID that no process has: a child's, once it has ended and been reaped.
pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

// An empty file at `path`, last modified `age` ago.
void make_file_aged(const fs::path& path, std::chrono::seconds age) {
  std::ofstream{path};
  const timespec then = {std::time(nullptr) - age.count(), 0};
  const timespec times[2] = {then, then};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

// Of the leftovers, only the one of this user named for a PID that no
// process has and unmodified for long enough is provably a dead run's, and
// goes.
TEST(OutputTemporaries, AWriteRemovesThoseOfDeadRunsFromItsFolder) {
  TempDir tmp;
  write_image(tmp.file("in.png"), random_image(9, 7, 3, Depth::U8, 43));
  fs::create_directory(tmp / "out");
  const std::string dead = std::to_string(dead_pid()), alive = std::to_string(::getpid());
  const std::chrono::seconds old = kStaleTemporaryAge + std::chrono::minutes(1);
  const std::chrono::seconds recent = kStaleTemporaryAge - std::chrono::minutes(1);
  make_file_aged(tmp / "out" / (".gpuimg-tmp-" + dead + "-Ab12Cd"), old);
  make_file_aged(tmp / "out" / (".gpuimg-tmp-" + dead + "-Ef34Gh"), recent);
  make_file_aged(tmp / "out" / (".gpuimg-tmp-" + alive + "-Ij56Kl"), old);
  make_file_aged(tmp / "out" / ".gpuimg-tmp-Mn78Op", old);  // no PID: whose, no one can say
  std::set<std::string> kept = {".gpuimg-tmp-" + dead + "-Ef34Gh", ".gpuimg-tmp-" + alive + "-Ij56Kl",
                                ".gpuimg-tmp-Mn78Op", "o.png"};
  if (::geteuid() == 0) {  // another user's, which only root can make here
    const fs::path theirs = tmp / "out" / (".gpuimg-tmp-" + dead + "-Qr90St");
    make_file_aged(theirs, old);
    ASSERT_EQ(::chown(theirs.c_str(), 65534, 65534), 0);
    kept.insert(theirs.filename().string());
  }

  const RunResult r = run_binary({"in.png", "--invert", "out/o.png"}, {tmp.path()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(tmp / "out")) names.insert(e.path().filename().string());
  EXPECT_EQ(names, kept);
}

}  // namespace
}  // namespace gpuimg::test
