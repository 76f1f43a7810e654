// --map from the command line: a bad expression is a usage error showing
// the expression with a caret under the column (one line each, escaped as
// every message is), an unknown name a "did you mean"; no output file
// either way. Batch mode and golden manifests take it like any op, and a
// manifest's bad expression gets the caret too, under the line naming it.
#include <gtest/gtest.h>

#include <fstream>

#include "codec.hpp"
#include "image_compare.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

RunResult map_run(const TempDir& tmp, const std::string& expression) {
  return run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--map", expression, tmp.file("out.png")});
}

TEST(CliMap, AParseErrorShowsACaretUnderTheColumn) {
  TempDir tmp;
  const RunResult r = map_run(tmp, "v * (x + ");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.rfind("gpuimg: --map: EXPR: column ", 0), 0u) << r.err;
  const std::size_t first = r.err.find('\n'), second = r.err.find('\n', first + 1);
  ASSERT_NE(second, std::string::npos) << r.err;
  EXPECT_EQ(r.err.substr(first + 1, second - first - 1), "gpuimg:   v * (x + ");
  const std::string caret = r.err.substr(second + 1);
  EXPECT_EQ(caret.substr(0, 10), "gpuimg:   ");
  EXPECT_EQ(caret.find_first_not_of(' ', 10), caret.find('^')) << r.err;
  EXPECT_EQ(caret.back(), '\n');
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 3) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out.png"));
}

// A script's expression over several lines runs as on one; its error shows
// the line that holds it, numbered, with the caret under it.
TEST(CliMap, AnExpressionOverSeveralLines) {
  TempDir tmp;
  const RunResult ok = map_run(tmp, "r * 0.3 +\n\tg * 0.6 +\r\n\tb * 0.1\n");
  ASSERT_EQ(ok.status, 0) << ok.err;
  const RunResult one = run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--map",
                                    "r * 0.3 + g * 0.6 + b * 0.1", tmp.file("one.png")});
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_TRUE(same_samples(read_image(tmp.file("out.png")), read_image(tmp.file("one.png"))));
  fs::remove(tmp / "out.png");
  const RunResult bad = map_run(tmp, "r * 0.3 +\n  g * 0.6 +\n  b * * 0.1");
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_EQ(bad.err,
            "gpuimg: --map: EXPR: line 3, column 7: expected an operand after '*' (see gpuimg --help)\n"
            "gpuimg:     b * * 0.1\n"
            "gpuimg:         ^\n");
  EXPECT_FALSE(fs::exists(tmp / "out.png"));
}

// -v names each stage on one line: an expression's newlines and tabs shown
// escaped, as in every message.
TEST(CliMap, VerboseShowsAnExpressionOverSeveralLinesOnOne) {
  TempDir tmp;
  const RunResult r = run_binary({(data_dir() / "tiny.png").string(), "--device", "cpu", "-v", "--map",
                                  "v *\n  0.5 +\n\t0.1", tmp.file("out.png")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("gpuimg: stage 1: map EXPR=v *\\n  0.5 +\\n\\t0.1 "), std::string::npos) << r.err;
  for (std::size_t at = 0, end; (end = r.err.find('\n', at)) != std::string::npos; at = end + 1)
    EXPECT_EQ(r.err.compare(at, 8, "gpuimg: "), 0) << "a line that does not start as gpuimg's: " << r.err.substr(at);
}

TEST(CliMap, AnUnknownNameGetsADidYouMean) {
  TempDir tmp;
  const RunResult name = map_run(tmp, "vv*2");
  EXPECT_EQ(name.status, 2) << name.err;
  EXPECT_NE(name.err.find("did you mean 'v'"), std::string::npos) << name.err;
  const RunResult function = map_run(tmp, "sine(x)");
  EXPECT_EQ(function.status, 2) << function.err;
  EXPECT_NE(function.err.find("did you mean 'sin'"), std::string::npos) << function.err;
  // Letter case aside, ImageMagick's names, and no guess for a lone letter.
  for (const auto& [typed, meant] : std::vector<std::pair<std::string, std::string>>{
           {"R", "'r'"}, {"PI", "'pi'"}, {"Sin(v)", "'sin'"}, {"i/w", "'x'"}, {"u*2", "'v'"}}) {
    const RunResult r = map_run(tmp, typed);
    EXPECT_NE(r.err.find("(did you mean " + meant + "?)"), std::string::npos) << r.err;
  }
  EXPECT_EQ(map_run(tmp, "q").err.find("did you mean"), std::string::npos);
  EXPECT_FALSE(fs::exists(tmp / "out.png"));
}

TEST(CliMap, AnOptionWhereTheExpressionShouldBeIsNamed) {
  TempDir tmp;
  const RunResult r = map_run(tmp, "--invert");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--map: EXPR is missing: expected an expression, got '--invert'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// "--map out.png": the output taken for the expression, which then reads
// as an expression with a '.' in it; the file name is said instead.
TEST(CliMap, AFileNameWhereTheExpressionShouldBeIsNamed) {
  TempDir tmp;
  const RunResult r = run_binary({(data_dir() / "scene.png").string(), "--map", tmp.file("out.png")});
  EXPECT_EQ(r.status, 2) << r.err;
  const std::string said = "--map: EXPR is missing: expected an expression, got '" + tmp.file("out.png") + "'";
  EXPECT_NE(r.err.find(said + ", a file name"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out.png"));
  // A batch's output folder too; but not where expressions were given.
  const RunResult folder = run_binary({(data_dir() / "scene.png").string(), "--map", "out/"});
  EXPECT_NE(folder.err.find("--map: EXPR is missing: expected an expression, got 'out/', a file name"),
            std::string::npos)
      << folder.err;
  const RunResult given = run_binary({(data_dir() / "scene.png").string(), "--map", "v;v;x.png", tmp.file("o.png")});
  EXPECT_EQ(given.status, 2) << given.err;
  EXPECT_EQ(given.err.find("is missing"), std::string::npos) << given.err;
  // An empty one is the parser's to name (the file check reads no last character).
  const RunResult empty = run_binary({(data_dir() / "scene.png").string(), "--map", "", tmp.file("o.png")});
  EXPECT_EQ(empty.status, 2) << empty.err;
  EXPECT_NE(empty.err.find("--map: EXPR: column 1: empty expression"), std::string::npos) << empty.err;
}

TEST(CliMap, TooManyExpressionsForAGrayImageNameTheFile) {
  TempDir tmp;
  const RunResult r = run_binary({(data_dir() / "gray.png").string(), "--device", "cpu", "--map", "v;v;v",
                                  tmp.file("out.png")});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("gray.png: stage 1 (map EXPR=v;v;v): EXPR gives 3 expressions"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out.png"));
}

// A golden manifest's quoted expression, blanks and bars in it, round trip
// through update and check.
TEST(CliMap, GoldenManifestsTakeQuotedExpressions) {
  TempDir tmp;
  fs::copy_file(data_dir() / "scene.png", tmp / "scene.png");
  std::ofstream(tmp / "cases.txt") << "m | scene.png | --map 'r > 0.6 || b < 0.2 ? 1 - v : v' --blur 1\n";
  const RunResult update = run_binary({"golden", "update", tmp.file("cases.txt"), "--device", "cpu"});
  ASSERT_EQ(update.status, 0) << update.err;
  const RunResult check = run_binary({"golden", "check", tmp.file("cases.txt"), "--device", "cpu"});
  EXPECT_EQ(check.status, 0) << check.err;
  const RunResult direct = run_binary({tmp.file("scene.png"), "--device", "cpu", "--map",
                                       "r > 0.6 || b < 0.2 ? 1 - v : v", "--blur", "1", tmp.file("direct.png")});
  ASSERT_EQ(direct.status, 0) << direct.err;
  EXPECT_TRUE(same_samples(read_image(tmp.file("m.png")), read_image(tmp.file("direct.png"))));
}

// The manifest's line names the place on the first line, and the
// expression and its caret follow as on the command line.
TEST(CliMap, AGoldenManifestsParseErrorShowsACaretUnderItsLine) {
  TempDir tmp;
  fs::copy_file(data_dir() / "scene.png", tmp / "scene.png");
  std::ofstream(tmp / "cases.txt") << "# a bad expression on line 3\n\nm | scene.png | --map 'v * (x +' --blur 1\n";
  const RunResult r = run_binary({"golden", "update", tmp.file("cases.txt"), "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "gpuimg: " + tmp.file("cases.txt") +
                       ":3: --map: EXPR: column 9: expected an operand after '+'\n"
                       "gpuimg:   v * (x +\n"
                       "gpuimg:           ^\n");
  EXPECT_FALSE(fs::exists(tmp / "m.png"));
}

TEST(CliMap, BatchModeTakesItLikeAnyOp) {
  TempDir tmp;
  fs::create_directories(tmp / "in");
  fs::copy_file(data_dir() / "scene.png", tmp / "in" / "a.png");
  fs::copy_file(data_dir() / "rgba.png", tmp / "in" / "b.png");
  const std::string expression = "v*(1-0.5*hypot(x/w-0.5,y/h-0.5))";
  const RunResult r = run_binary({tmp.file("in") + "/", "--device", "cpu", "--map", expression, tmp.file("out") + "/"});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* name : {"a.png", "b.png"}) {
    const RunResult one = run_binary({(tmp / "in" / name).string(), "--device", "cpu", "--map", expression,
                                      tmp.file(std::string("one_") + name)});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_TRUE(same_samples(read_image((tmp / "out" / name).string()), read_image(tmp.file(std::string("one_") + name))))
        << name;
  }
}

}  // namespace
}  // namespace gpuimg::test
