// golden check's reports for CI: --junit (the elements and attributes
// Ant's junit.xsd requires, one testcase a case, a failure with the reason
// and the diff's path, an error for a broken case), --json (every field of
// the gpuimg-golden/1 schema in docs/compare.md, read by a strict reader) and
// --format github (one ::error line per failing or broken case, escaped).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codec.hpp"
#include "json_reader.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

namespace fs = std::filesystem;

// Three cases: `same` passes, `drift` fails (its golden is inverted), `gone`
// cannot run (no input).
std::string three_cases(const TempDir& tmp) {
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  fs::copy_file(data_dir() / "gray.png", tmp / "same.png");
  EXPECT_EQ(run_binary({(tmp / "gray.png").string(), "--invert", (tmp / "drift.png").string()}).status, 0);
  const std::string manifest = (tmp / "golden.txt").string();
  std::ofstream(manifest) << "same  | gray.png | --invert --invert\n"
                             "drift | gray.png | --invert --invert --invert --invert | max-diff=3\n"
                             "gone  | missing.png | --invert\n";
  return manifest;
}

std::string file_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// -q leaves the rows of the cases that passed out, -v adds the device.
TEST(GoldenReports, QuietShowsOnlyWhatDidNotPassAndVerboseTheDevice) {
  TempDir tmp;
  const std::string manifest = three_cases(tmp);
  RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu", "-q"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(count(r.out, "\n"), 3) << r.out;
  EXPECT_EQ(r.out.find("same "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.rfind("drift ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("3 cases: 1 passed, 1 failed, 1 error\n"), std::string::npos) << r.out;
  r = run_binary({"golden", "check", manifest, "--device", "cpu", "-v"});
  EXPECT_EQ(r.err.rfind("gpuimg: device: cpu", 0), 0u) << r.err;
  EXPECT_EQ(count(r.out, "\n"), 5) << r.out;
  r = run_binary({"golden", "check", manifest, "-q", "--json"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("-q and --json: give one or the other"), std::string::npos) << r.err;
}

// A picture or report of the run never replaces a file the manifest names:
// with --diff-dir or --html the manifest's own folder, a case's
// NAME.diff.png would overwrite an input of that name (or, the case
// passing, remove it as a stale picture); a --junit could be the manifest.
// A count of one is singular: "1 case", "1 error".
TEST(GoldenReports, CountsOfOneAreSingular) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  fs::copy_file(data_dir() / "gray.png", tmp / "same.png");
  const std::string manifest = (tmp / "golden.txt").string();
  std::ofstream(manifest) << "same | gray.png | --invert --invert\n";
  RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\n1 case: 1 passed, 0 failed, 0 errors\n"), std::string::npos) << r.out;
  std::ofstream(manifest, std::ios::app) << "gone | missing.png | --invert\n";
  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.out.find("\n2 cases: 1 passed, 0 failed, 1 error\n"), std::string::npos) << r.out;
}

TEST(GoldenReports, PicturesAndReportsNeverReplaceAFileTheManifestNames) {
  TempDir tmp;
  const std::string manifest = three_cases(tmp);
  fs::copy_file(tmp / "gray.png", tmp / "drift.diff.png");
  std::ofstream(manifest, std::ios::app) << "other | drift.diff.png | --invert\n";
  const std::string listed = file_text(manifest), input = file_text(tmp / "drift.diff.png");
  struct Form {
    std::vector<std::string> words;
    std::string message;
  };
  const std::string dir = tmp.path().string();
  for (const Form& form :
       {Form{{"--diff-dir", dir}, "--diff-dir: would replace " + dir + "/drift.diff.png, which the manifest names; "
                                  "give it another folder"},
        Form{{"--html", dir + "/"}, "--html: would replace " + dir + "/drift.diff.png, which the manifest names; "
                                    "give it another folder"},
        Form{{"--junit", manifest}, "--junit: would replace " + manifest + ", which the manifest names; "
                                    "give it another file"}}) {
    std::vector<std::string> words = {"golden", "check", manifest, "--device", "cpu"};
    words.insert(words.end(), form.words.begin(), form.words.end());
    const RunResult r = run_binary(words);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, "gpuimg: " + form.message + "\n");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(file_text(manifest), listed);
    EXPECT_EQ(file_text(tmp / "drift.diff.png"), input);
  }
  // --html writes index.html too: a manifest of that name.
  fs::copy_file(manifest, tmp / "index.html");
  const RunResult r = run_binary({"golden", "check", (tmp / "index.html").string(), "--device", "cpu", "--html", dir});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "gpuimg: --html: would replace " + dir + "/index.html, which the manifest names; give it another "
                   "folder\n");
  EXPECT_EQ(file_text(tmp / "index.html"), listed);
}

TEST(GoldenReports, JunitXml) {
  TempDir tmp;
  const std::string manifest = three_cases(tmp);
  const fs::path xml = tmp / "report.xml";
  const RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu", "--junit", xml.string(), "--diff-dir",
                                  (tmp / "diffs").string()});
  EXPECT_EQ(r.status, 2) << r.err;  // a broken case outranks a failing one
  const std::string x = file_text(xml);
  EXPECT_EQ(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites ", 0), 0u) << x;
  for (const char* required :
       {" tests=\"3\" failures=\"1\" errors=\"1\"", "<testsuite name=\"", " package=\"", " id=\"0\"", " timestamp=\"",
        " hostname=\"", "<properties/>", "<system-out/>", "<system-err/>", "</testsuite>\n</testsuites>\n"})
    EXPECT_NE(x.find(required), std::string::npos) << required << "\n" << x;
  EXPECT_EQ(count(x, "<testcase "), 3) << x;
  EXPECT_EQ(count(x, " classname=\""), 3) << x;
  EXPECT_NE(x.find("name=\"same\" time=\""), std::string::npos) << x;
  const std::string diff = (tmp / "diffs" / "drift.diff.png").string();
  EXPECT_NE(x.find("<failure type=\"failure\" message=\"max-diff 183 &gt; 3; see " + diff + "\">"), std::string::npos)
      << x;
  EXPECT_NE(x.find("\ndiff: " + diff + "</failure>"), std::string::npos) << x;
  EXPECT_NE(x.find("<error type=\"error\" message=\"" + (tmp / "missing.png").string()), std::string::npos) << x;
  EXPECT_TRUE(fs::exists(diff));
}

TEST(GoldenReports, JsonDocumentInTheDocumentedSchema) {
  TempDir tmp;
  const RunResult r = run_binary({"golden", "check", three_cases(tmp), "--device", "cpu", "--json"});
  EXPECT_EQ(r.status, 2) << r.err;
  const Json doc = parse_json(r.out);
  EXPECT_EQ(doc["schema"].string, "gpuimg-golden/1");
  EXPECT_EQ(doc["device"].string, "cpu");
  EXPECT_FALSE(doc["pass"].boolean);
  EXPECT_EQ(doc["counts"]["cases"].number, 3);
  EXPECT_EQ(doc["counts"]["passed"].number, 1);
  EXPECT_EQ(doc["counts"]["failed"].number, 1);
  EXPECT_EQ(doc["counts"]["errors"].number, 1);
  const std::vector<Json>& cases = doc["cases"].items;
  ASSERT_EQ(cases.size(), 3u);
  const char* results[] = {"pass", "fail", "error"};
  for (int i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    const Json& c = cases[i];
    EXPECT_EQ(c["line"].number, i + 1);
    EXPECT_EQ(c["result"].string, results[i]);
    for (const char* key :
         {"name", "golden", "seconds", "thresholds", "failures", "error", "diff", "notes", "mismatch"})
      EXPECT_NO_THROW(c[key]) << key;
    EXPECT_EQ(c["overall"].kind, i == 2 ? Json::Kind::null : Json::Kind::object);
  }
  EXPECT_EQ(cases[1]["failures"].items.at(0).string, "max-diff 183 > 3");
  EXPECT_EQ(cases[1]["thresholds"]["max-diff"].number, 3);
  EXPECT_EQ(cases[1]["overall"]["max_diff"].number, 183);
  EXPECT_EQ(cases[1]["overall"]["ssim"].kind, Json::Kind::null);  // no limit asked for it
  EXPECT_EQ(cases[1]["diff"].kind, Json::Kind::null);             // no --diff-dir
  EXPECT_EQ(cases[2]["error"].kind, Json::Kind::string);
  EXPECT_EQ(cases[0]["thresholds"]["max-diff"].number, 0);
}

TEST(GoldenReports, GithubAnnotations) {
  TempDir tmp;
  const std::string manifest = three_cases(tmp);
  RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu", "--format", "github"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.out.find("3 cases: 1 passed, 1 failed, 1 error\n"), std::string::npos) << r.out;
  EXPECT_EQ(count(r.out, "::error "), 2) << r.out;
  EXPECT_NE(r.out.find("::error file=" + manifest + ",line=2,title=golden drift failed::max-diff 183 > 3\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(",line=3,title=golden gone%3A error::"), std::string::npos) << r.out;
  r = run_binary({"golden", "check", manifest, "--format", "gitlab"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--format: must be text or github, got 'gitlab'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpuimg::test
