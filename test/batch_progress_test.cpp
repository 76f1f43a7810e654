// The progress line: drawn on a terminal, absent on a pipe unless
// --progress, absent with --quiet, and always the documented format:
// "[bar]  done/total  R images/s  ETA m:ss", redrawn after a '\r' on a terminal,
// a line of its own for each new count elsewhere.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "batch_tree.hpp"
#include "child_process.hpp"

namespace gpuimg::test {
namespace {

const std::vector<std::string> kBatch = {"in/", "--invert", "--device", "cpu", "out/", "--jobs", "2"};

// The redrawn lines in `err`: the text after each '\r' that starts a bar.
std::vector<std::string> drawn_lines(const std::string& err) {
  std::vector<std::string> lines;
  for (std::size_t at = err.find("\r["); at != std::string::npos; at = err.find("\r[", at + 1)) {
    const std::size_t end = err.find('\r', at + 1);
    lines.push_back(err.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1));
  }
  return lines;
}

// Forced onto a pipe (a log file), each new count is a line of its own,
// with no '\r' or terminal control codes in it, the last the batch's total.
TEST(BatchProgress, ForcedLinesFollowTheFormat) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  const RunResult r = run_binary(args(kBatch, {"--progress"}), {tmp.path()});
  EXPECT_EQ(r.status, 1) << r.err;  // the corrupt file
  EXPECT_FALSE(has(r.err, "\r")) << r.err;
  EXPECT_FALSE(has(r.err, "\x1b")) << r.err;
  std::vector<std::string> lines;
  std::istringstream text(r.err);
  for (std::string line; std::getline(text, line);)
    if (!line.empty() && line[0] == '[') lines.push_back(line);
  ASSERT_FALSE(lines.empty()) << r.err;
  const std::regex format(R"(\[[#.]{20}\]  [0-5]/5  [0-9]+\.[0-9] images/s  ETA ([0-9]+:[0-5][0-9]|-:--))");
  for (const std::string& line : lines) EXPECT_TRUE(std::regex_match(line, format)) << "'" << line << "'";
  EXPECT_EQ(lines.front().substr(0, 28), "[....................]  0/5 ") << "the first line is written before any file ends";
  for (std::size_t i = 1; i < lines.size(); ++i)
    EXPECT_NE(lines[i].substr(0, 28), lines[i - 1].substr(0, 28)) << "a count written twice";
  EXPECT_EQ(lines.back().substr(0, 28), "[####################]  5/5 ") << r.err;
  EXPECT_TRUE(has(r.err, summary(4, 1, 0))) << r.err;
}

TEST(BatchProgress, NothingOnAPipeByDefaultOrWithQuiet) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--quiet"}}) {
    const RunResult r = run_binary(args(kBatch, extra), {tmp.path()});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_FALSE(has(r.err, "\r")) << r.err;
    EXPECT_TRUE(has(r.err, summary(4, 1, 0))) << r.err;
  }
}

// stderr on a pseudo-terminal: what the child wrote there.
std::string run_on_terminal(const fs::path& dir, const std::vector<std::string>& args) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) detail::fail_errno("posix_openpt");
  const int slave = ::open(::ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (slave < 0) detail::fail_errno("open pty");
  Child child(args, dir, -1, slave);
  ::close(slave);
  std::string text;
  for (;;) {  // until the child's end closes the terminal: EIO
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 20000) <= 0) break;
    char buf[4096];
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n > 0) text.append(buf, static_cast<std::size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(master);
  EXPECT_EQ(child.wait(10.0), 1) << text;
  return text;
}

TEST(BatchProgress, DrawnOnATerminalUnlessQuiet) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  const std::string shown = run_on_terminal(tmp.path(), kBatch);
  EXPECT_FALSE(drawn_lines(shown).empty()) << shown;
  const std::string quiet = run_on_terminal(tmp.path(), args(kBatch, {"--quiet"}));
  EXPECT_TRUE(drawn_lines(quiet).empty()) << quiet;
  EXPECT_TRUE(has(quiet, "4 processed, 1 failed")) << quiet;
}

}  // namespace
}  // namespace gpuimg::test
