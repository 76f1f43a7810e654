// A golden manifest's bad lines are reported all at once, each on its own
// line naming the manifest's path and line as a single bad line always
// was, so that a user fixes them in one round rather than one a run.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "error.hpp"
#include "manifest.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

TEST(GoldenManifestErrors, EveryBadLineIsReported) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  const std::string manifest = tmp.file("cases.txt");
  std::ofstream(manifest) << "# three bad lines among good ones\n"
                             "ok | gray.png | --invert\n"
                             "a b | gray.png | --invert\n"
                             "sharp | gray.png | --sharpen 0.5\n"
                             "m | gray.png | --map 'v * (x +'\n"
                             "ok | gray.png | --blur 2\n";
  for (const char* command : {"check", "update"}) {
    SCOPED_TRACE(command);
    const RunResult r = run_binary({"golden", command, manifest, "--device", "cpu"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "gpuimg: " + manifest + ":3: NAME and INPUT must be one word each\n"
                     "gpuimg: " + manifest + ":5: --map: EXPR: column 9: expected an operand after '+'\n"
                     "gpuimg:   v * (x +\n"
                     "gpuimg:           ^\n"
                     "gpuimg: " + manifest + ":6: name 'ok' repeats\n");
    EXPECT_FALSE(fs::exists(tmp / "ok.png"));
    EXPECT_FALSE(fs::exists(tmp / "sharp.png"));
  }
}

// Past 20 bad lines the rest are counted, not listed.
TEST(GoldenManifestErrors, PastTwentyTheRestAreCounted) {
  TempDir tmp;
  std::string text, want;
  for (int i = 1; i <= 25; ++i) {
    text += "case" + std::to_string(i) + " | in.png | --blur 0\n";
    if (i <= 20)
      want += "gpuimg: " + tmp.file("cases.txt") + ":" + std::to_string(i) +
              ": --blur: R must be an integer from 1 to 4096, got '0'\n";
  }
  std::ofstream(tmp.file("cases.txt")) << text;
  const RunResult r = run_binary({"golden", "check", tmp.file("cases.txt"), "--device", "cpu"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, want + "gpuimg: ... and 5 more bad lines\n");
}

// The library's reader: one InputError whose what() is the first bad line,
// as it was, and whose lines are every one.
TEST(GoldenManifestErrors, TheReaderListsEveryBadLine) {
  std::istringstream text("a | in.png\nok | in.png | --invert\nb c | in.png |\nok | in.png |\n");
  try {
    parse_manifest(text, "m.txt");
    FAIL() << "bad lines were taken";
  } catch (const ManifestError& e) {
    EXPECT_EQ(std::string(e.what()), "m.txt:1: expected 'NAME | INPUT | ARGS... [| LIMIT=VALUE ...]'");
    ASSERT_EQ(e.lines().size(), 3u);
    EXPECT_EQ(std::string(e.lines()[1].what()), "m.txt:3: NAME and INPUT must be one word each");
    EXPECT_EQ(std::string(e.lines()[2].what()), "m.txt:4: name 'ok' repeats");
    EXPECT_EQ(e.more(), 0u);
  }
}

}  // namespace
}  // namespace gpuimg::test
