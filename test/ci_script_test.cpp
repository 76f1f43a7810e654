// .ci/run, run in a copy of the tree whose steps are stand-ins that log
// their running and pass or fail as told: every step runs whatever the
// ones before it did, and the run fails at the end naming those that failed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "batch_tree.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

// A step that appends its name and arguments to ran.log and exits `status`.
void stand_in(const fs::path& path, int status) {
  fs::create_directories(path.parent_path());
  write_bytes(path, "#!/bin/sh\necho \"" + path.filename().string() + " $*\" >> ran.log\nexit " +
                        std::to_string(status) + "\n");
  fs::permissions(path, fs::perms::owner_all);
}

struct CiResult {
  int status;
  std::string output, ran;
};

CiResult run_ci(const fs::path& tree, int sanitize_status) {
  fs::create_directories(tree / ".ci");
  fs::copy_file(data_dir().parent_path() / ".ci" / "run", tree / ".ci" / "run", fs::copy_options::overwrite_existing);
  stand_in(tree / "scripts" / "test.sh", 0);
  stand_in(tree / "build" / "gpuimg", 0);
  stand_in(tree / "scripts" / "sanitize.sh", sanitize_status);
  stand_in(tree / "scripts" / "tsan.sh", 0);
  fs::remove(tree / "ran.log");
  const std::string command = "'" + (tree / ".ci" / "run").string() + "' > '" + (tree / "out.txt").string() + "' 2>&1";
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_bytes(tree / "out.txt"), read_bytes(tree / "ran.log")};
}

TEST(CiScript, RunsEveryStepAndFailsAtTheEndNamingTheFailedOnes) {
  TempDir tmp;
  const std::string every_step =
      "test.sh \ngpuimg golden check data/golden/cases.txt --device cpu\nsanitize.sh \ntsan.sh \n";
  const CiResult failing = run_ci(tmp.path(), 1);
  EXPECT_EQ(failing.status, 1) << failing.output;
  EXPECT_EQ(failing.ran, every_step) << "a step after the failed one did not run";
  EXPECT_TRUE(has(failing.output, ".ci/run: 1 step(s) failed:\n  scripts/sanitize.sh\n")) << failing.output;

  const CiResult passing = run_ci(tmp.path(), 0);
  EXPECT_EQ(passing.status, 0) << passing.output;
  EXPECT_EQ(passing.ran, every_step);
  EXPECT_FALSE(has(passing.output, "failed")) << passing.output;
}

}  // namespace
}  // namespace gpuimg::test
