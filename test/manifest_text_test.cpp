// A golden manifest read from text already open, as the manifest fuzz
// target reads it: the cases, where their files are, and the line an
// error names.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "error.hpp"
#include "manifest.hpp"

namespace gpuimg::test {
namespace {

TEST(ManifestText, CasesWithTheirFilesBesideTheManifest) {
  std::istringstream text("# a comment\n\nblur | in.png | --blur 3 --invert | max-diff=1\n");
  const Manifest m = parse_manifest(text, "dir/cases.txt");
  ASSERT_EQ(m.cases.size(), 1u);
  const GoldenCase& c = m.cases[0];
  EXPECT_EQ(c.name, "blur");
  EXPECT_EQ(c.input, "dir/in.png");
  EXPECT_EQ(c.golden, "dir/blur.png");
  EXPECT_EQ(c.args, (std::vector<std::string>{"--blur", "3", "--invert"}));
  ASSERT_EQ(c.limits.size(), 1u);
  EXPECT_EQ(c.limits[0].limit, 1);
  EXPECT_EQ(c.line, 3);
}

TEST(ManifestText, AnErrorNamesThePathAndLine) {
  std::istringstream text("ok | a.png | --invert\nbad name | a.png | --invert\n");
  try {
    parse_manifest(text, "m.txt");
    FAIL() << "a two-word name was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "m.txt:2: NAME and INPUT must be one word each");
  }
}

// A byte order mark, as some Windows editors begin UTF-8 with, is skipped
// before the first line; anywhere else it is a character like any other.
TEST(ManifestText, AByteOrderMarkBeforeTheFirstLineIsSkipped) {
  std::istringstream text("\xEF\xBB\xBF" "blur | in.png | --blur 1\n");
  const Manifest m = parse_manifest(text, "m.txt");
  ASSERT_EQ(m.cases.size(), 1u);
  EXPECT_EQ(m.cases[0].name, "blur");
  std::istringstream second("a | in.png | --invert\n\xEF\xBB\xBF" "b | in.png | --invert\n");
  try {
    parse_manifest(second, "m.txt");
    FAIL() << "a mark inside the manifest was skipped";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("m.txt:2: name '", 0), 0u) << e.what();
  }
}

// An expression holds blanks and bars: single quotes group them, as a
// shell's do; a comment may hold an odd quote; an unclosed one is named.
TEST(ManifestText, QuotesGroupBlanksAndBars) {
  std::istringstream text("# don't split\nm | in.png | --map 'r > 0.5 || g > 0.5' --blur 1 | max-diff=1\n");
  const Manifest m = parse_manifest(text, "m.txt");
  ASSERT_EQ(m.cases.size(), 1u);
  EXPECT_EQ(m.cases[0].args, (std::vector<std::string>{"--map", "r > 0.5 || g > 0.5", "--blur", "1"}));
  EXPECT_EQ(m.cases[0].limits.size(), 1u);
  std::istringstream open("m | in.png | --map 'v*2\n");
  try {
    parse_manifest(open, "m.txt");
    FAIL() << "an unclosed quote was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "m.txt:1: a quote (') is not closed");
  }
}

}  // namespace
}  // namespace gpuimg::test
