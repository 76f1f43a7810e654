// Ctrl-C at every phase of a batch: while it finds the files, while it
// reads the list from stdin, and in the middle of the work. Each stops
// promptly, exits 130 and leaves no partial file.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "batch_items.hpp"
#include "batch_tree.hpp"
#include "child_process.hpp"

namespace gpuimg::test {
namespace {

// Ctrl-C in the middle of a long batch: status 130, every output there is
// complete (it equals the one-image result), no temporary is left, and a
// rerun with --skip-existing does exactly the rest.
TEST(CliBatchInterrupt, StopsPromptlyLeavingNoPartialFile) {
  TempDir tmp;
  fs::create_directory(tmp / "in");
  write_image((tmp / "in" / "000.png").string(), random_image(300, 200, 3, Depth::U8, 7));
  constexpr int kFiles = 300;
  for (int i = 1; i < kFiles; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "%03d.png", i);
    fs::copy_file(tmp / "in" / "000.png", tmp / "in" / name);
  }
  const std::vector<std::string> ops = {"--blur", "8", "--device", "cpu"};
  Child child(args(args({"in/"}, ops), {"out/", "--jobs", "2"}), tmp.path());
  // Wait for the first outputs, then interrupt.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (files_under(tmp / "out").size() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  child.signal(SIGINT);
  ASSERT_EQ(child.wait(5.0), 130) << "-1: still running 5 s after Ctrl-C";

  const std::set<std::string> written = files_under(tmp / "out");
  EXPECT_GE(written.size(), 3u);
  EXPECT_LT(written.size(), static_cast<std::size_t>(kFiles)) << "the run was not interrupted";
  const std::string expected = single_result(tmp / "in" / "000.png", "png", ops);
  for (const std::string& f : written) {
    EXPECT_EQ(f.find(".gpuimg-tmp"), std::string::npos) << "temporary left: " << f;
    EXPECT_EQ(read_bytes(tmp / "out" / f), expected) << f << " is partial or wrong";
  }

  const RunResult rest = run_binary(args(args({"in/"}, ops), {"out/", "--skip-existing"}), {tmp.path()});
  EXPECT_EQ(rest.status, 0) << rest.err;
  EXPECT_TRUE(has(rest.err, summary(kFiles - static_cast<int>(written.size()), 0, static_cast<int>(written.size()))))
      << rest.err;
  EXPECT_EQ(files_under(tmp / "out").size(), static_cast<std::size_t>(kFiles));
}

// A list on stdin whose writer neither writes the end nor closes the pipe:
// the read must still give way to Ctrl-C.
TEST(CliBatchInterrupt, StopsWhileReadingTheListFromStdin) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  const std::string line = "in/a.png\n";
  ASSERT_EQ(::write(fds[1], line.data(), line.size()), static_cast<ssize_t>(line.size()));
  Child child(args({"--files-from", "-", "--invert", "--device", "cpu"}, {"out/"}), tmp.path(), fds[0]);
  ::close(fds[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(child.ended()) << "it ended before the list did";
  child.signal(SIGINT);
  EXPECT_EQ(child.wait(5.0), 130) << "-1: still running 5 s after Ctrl-C";
  ::close(fds[1]);
  EXPECT_FALSE(fs::exists(tmp / "out")) << "an interrupted run made its output folder";
}

// The folder walk asks between entries whether to stop.
TEST(BatchPlan, AWalkStopsWhenAsked) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  int asked = 0;
  const auto stop_at_third = [&] { return ++asked >= 3; };
  EXPECT_THROW(plan_batch({{tmp.file("in")}, {}, true, ""}, tmp.file("out"), "", stop_at_third), Interrupted);
  EXPECT_EQ(asked, 3);
  EXPECT_EQ(plan_batch({{tmp.file("in")}, {}, true, ""}, tmp.file("out"), "", [] { return false; }).size(), 5u);
}

}  // namespace
}  // namespace gpuimg::test
