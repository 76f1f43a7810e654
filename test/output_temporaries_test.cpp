// The temporary file every output is written through (write_file_atomically):
// it fits wherever the output fits, and a run stopped by a signal removes it.
#include <gtest/gtest.h>
#include <limits.h>
#include <signal.h>

#include <chrono>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "codec.hpp"
#include "image_compare.hpp"
#include "run_binary.hpp"

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

// A one-image run caught while its temporary exists, frozen there
// (SIGSTOP), sent `signo` and let go: it removes the temporary and ends by
// that signal. The output, 32 MiB stored, takes long enough to write to be
// caught; a run whose rename comes first is run again.
void expect_the_signal_removes_the_temporary(int signo) {
  TempDir tmp;
  write_image(tmp.file("in.png"), random_image(2048, 2048, 4, Depth::U16, 41));
  fs::create_directory(tmp / "out");
  for (int attempt = 0; attempt < 20; ++attempt) {
    fs::remove(tmp / "out" / "o.png");
    Child child({"in.png", "--invert", "--png-level", "0", "--device", "cpu", "out/o.png"}, tmp.path());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (temporaries(tmp / "out").empty() && !child.ended() && std::chrono::steady_clock::now() < deadline) {
    }
    if (!child.freeze()) continue;
    if (temporaries(tmp / "out").empty()) {
      child.resume();
      child.wait(60.0);
      continue;
    }
    child.signal(signo);
    child.resume();
    EXPECT_EQ(child.wait(5.0), 128 + signo) << "-1: still running 5 s after the signal";
    EXPECT_EQ(temporaries(tmp / "out"), std::vector<std::string>{});
    return;
  }
  FAIL() << "no run was caught writing";
}

TEST(OutputTemporaries, CtrlCDuringAWriteRemovesTheTemporary) { expect_the_signal_removes_the_temporary(SIGINT); }

TEST(OutputTemporaries, SigtermDuringAWriteRemovesTheTemporary) { expect_the_signal_removes_the_temporary(SIGTERM); }

}  // namespace
}  // namespace gpuimg::test
