// File names holding control bytes and bytes that are not UTF-8, through
// the built binary: every line that names one stays one line of printable
// UTF-8 and shows the name escaped (lib/printable.hpp), whichever command,
// message or stream it reaches.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "batch_tree.hpp"
#include "printable.hpp"
#include "run_binary.hpp"
#include "utf8_text.hpp"

namespace gpuimg::test {
namespace {

// A colour sequence, a newline, a tab, a byte that is never UTF-8, a C1
// CSI that some terminals obey, and a backslash; and how messages show it.
const std::string kName = "a\x1b[31mred\nline\t\xff\xc2\x9b" "2J\\.png";
const std::string kShown = "a\\x1b[31mred\\nline\\t\\xff\\xc2\\x9b2J\\\\.png";

// Whether `text` is `lines` whole lines of printable UTF-8: no control
// byte but each line's final newline, no DEL, no C1 control.
testing::AssertionResult safe_lines(const std::string& text, long lines) {
  const auto fail = [&] { return testing::AssertionFailure() << "\"" << printable(text) << "\": "; };
  if (!is_utf8(text)) return fail() << "not UTF-8";
  if (std::count(text.begin(), text.end(), '\n') != lines || (lines > 0 && text.back() != '\n'))
    return fail() << "not " << lines << " line(s)";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]), next = static_cast<unsigned char>(text[i + 1]);
    if ((b < 0x20 && b != '\n') || b == 0x7f || (b == 0xc2 && next < 0xa0))
      return fail() << "a control byte at " << i;
  }
  return testing::AssertionSuccess();
}

void copy_data(const char* name, const fs::path& to) { fs::copy_file(data_dir() / name, to); }

TEST(HostileNames, AnUnreadableInputIsOneEscapedLine) {
  TempDir tmp;
  RunResult r = run_binary({kName, "out.png"}, {tmp.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + kShown + ": no such file\n");
  EXPECT_TRUE(safe_lines(r.err, 1));

  write_bytes(tmp / kName, "not an image");
  r = run_binary({kName, "out.png"}, {tmp.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + kShown + ": not a recognised image format\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(files_under(tmp.path()), std::set<std::string>{kName});
  EXPECT_EQ(read_bytes(tmp / kName), "not an image");
}

// These messages hold the name twice, or only a folder taken from it, and
// the one about a missing folder is built inside lib/io.
TEST(HostileNames, OutputProblemsAreOneEscapedLine) {
  TempDir tmp;
  copy_data("tiny.png", tmp / "in.png");
  RunResult r = run_binary({"in.png", kName + "/out.png"}, {tmp.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + kShown + "/out.png: directory '" + kShown + "' does not exist\n");

  copy_data("tiny.png", tmp / kName);
  r = run_binary({kName, kName}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: " + kShown + ": is the input file; gpuimg never overwrites its input\n");

  r = run_binary({"in.png", "b.png", kName}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(safe_lines(r.err, 1));
  EXPECT_NE(r.err.find("'" + kShown + "'"), std::string::npos) << printable(r.err);
  EXPECT_EQ(files_under(tmp.path()), (std::set<std::string>{"in.png", kName}));
}

TEST(HostileNames, VerboseLinesEscapeBothNames) {
  TempDir tmp;
  copy_data("tiny.png", tmp / kName);
  const std::string out = "b\x1b]0;title\x07.png";
  const RunResult r = run_binary({kName, "--invert", "--device", "cpu", "-v", out}, {tmp.path()});
  ASSERT_EQ(r.status, 0) << printable(r.err);
  EXPECT_TRUE(safe_lines(r.err, std::count(r.err.begin(), r.err.end(), '\n')));
  EXPECT_EQ(r.err.rfind("gpuimg: " + kShown + ": ", 0), 0u) << printable(r.err);
  EXPECT_NE(r.err.find("gpuimg: b\\x1b]0;title\\x07.png: encoded and written in "), std::string::npos)
      << printable(r.err);
  EXPECT_TRUE(fs::exists(tmp / out));
}

TEST(HostileNames, BatchFailureLinesAreEscaped) {
  TempDir tmp;
  fs::create_directory(tmp / "in");
  copy_data("tiny.png", tmp / "in" / "good.png");
  write_bytes(tmp / "in" / kName, "not an image");
  RunResult r = run_binary({"in/", "--invert", "out/", "--device", "cpu", "--quiet"}, {tmp.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(safe_lines(r.err, 2));
  EXPECT_EQ(r.err.rfind("gpuimg: in/" + kShown + ": not a recognised image format\n" + summary(1, 1, 0), 0), 0u)
      << printable(r.err);

  // A listed path is the only name a refused output has; a list holds no newlines.
  write_bytes(tmp / "list.txt", "/x\x1b[2J\xfe.png\n");
  r = run_binary({"--files-from", "list.txt", "--invert", "out/", "--device", "cpu", "--quiet"}, {tmp.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(safe_lines(r.err, 2));
  EXPECT_EQ(r.err.rfind("gpuimg: /x\\x1b[2J\\xfe.png: would be written outside the output folder", 0), 0u)
      << printable(r.err);
}

// A list from find -print0 is refused whole, named, with the byte: read by
// lines it was one name holding NULs, and its failure line ended at the
// first. A byte order mark before the first path is skipped.
TEST(HostileNames, FileListsWithNulsAreRefusedAndByteOrderMarksSkipped) {
  TempDir tmp;
  fs::create_directory(tmp / "in");
  copy_data("tiny.png", tmp / "in" / "a.png");
  copy_data("tiny.png", tmp / "in" / "b.png");
  write_bytes(tmp / "list.txt", std::string("in/a.png\0in/b.png\n", 18));
  RunResult r = run_binary({"--files-from", "list.txt", "--invert", "out/", "--device", "cpu"}, {tmp.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: list.txt: not a text list (a NUL byte at byte 8): --files-from reads one path a line, "
                   "as find prints them without -print0\n")
      << printable(r.err);
  EXPECT_FALSE(fs::exists(tmp / "out"));

  write_bytes(tmp / "list.txt", "\xef\xbb\xbfin/a.png\r\nin/b.png\n");
  r = run_binary({"--files-from", "list.txt", "--invert", "out/", "--device", "cpu", "--quiet"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << printable(r.err);
  EXPECT_TRUE(fs::exists(tmp / "out" / "in" / "a.png"));
  EXPECT_TRUE(fs::exists(tmp / "out" / "in" / "b.png"));
}

TEST(HostileNames, CompareMessagesAreEscaped) {
  TempDir tmp;
  const std::string scene = (data_dir() / "scene.png").string(), gray = (data_dir() / "gray.png").string();
  RunResult r = run_binary({"compare", kName, scene}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: " + kShown + ": no such file\n");

  r = run_binary({"compare", scene, gray, "--diff", kName}, {tmp.path()});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(safe_lines(r.err, 1));
  EXPECT_EQ(r.err.rfind("gpuimg: " + kShown + ": not written: ", 0), 0u) << printable(r.err);
}

// A manifest's folder names every input and golden, in the table, in
// update's list and in the errors.
TEST(HostileNames, GoldenTablesAndErrorsAreEscaped) {
  TempDir tmp;
  const fs::path dir = tmp / kName;
  fs::create_directory(dir);
  std::ofstream(dir / "cases.txt") << "one | in.png | --invert\n";
  RunResult r = run_binary({"golden", "check", (dir / "cases.txt").string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(safe_lines(r.out, 3));
  EXPECT_NE(r.out.find(kShown + "/in.png: no such file"), std::string::npos) << printable(r.out);

  copy_data("tiny.png", dir / "in.png");
  r = run_binary({"golden", "update", (dir / "cases.txt").string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << printable(r.err);
  EXPECT_TRUE(safe_lines(r.out, 2));  // the case's line and the counts
  EXPECT_NE(r.out.find(kShown + "/one.png"), std::string::npos) << printable(r.out);

  std::ofstream(dir / "bad.txt") << "one | in.png\n";
  r = run_binary({"golden", "check", (dir / "bad.txt").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(safe_lines(r.err, 1));
  EXPECT_NE(r.err.find(kShown + "/bad.txt:1: "), std::string::npos) << printable(r.err);
}

}  // namespace
}  // namespace gpuimg::test
