// `golden check --html DIR`: the page and the images it needs, opened from
// disk in headless Chromium (Debian's chromium, which scripts/setup.sh --tests
// installs): its DOM must hold each failing case with every image loaded,
// and a screenshot must come out. Skipped only where no chromium is on the
// PATH, and failed even then when GPUIMG_REQUIRE_CHROMIUM is set, as .ci/run
// sets it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codec.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// scene.png as the input; goldens: equal, inverted (fails), half the size
// (fails on its shape); and a case whose input is missing (an error).
fs::path make_manifest(const TempDir& tmp) {
  fs::copy_file(data_dir() / "scene.png", tmp / "scene.png");
  fs::copy_file(data_dir() / "scene.png", tmp / "same.png");
  EXPECT_EQ(run_binary({(tmp / "scene.png").string(), "--invert", (tmp / "drift.png").string()}).status, 0);
  EXPECT_EQ(run_binary({(tmp / "scene.png").string(), "--resize", "50%", (tmp / "small.png").string()}).status, 0);
  const fs::path manifest = tmp / "golden.txt";
  std::ofstream(manifest) << "same   | scene.png   | --invert --invert\n"
                             "drift  | scene.png   | --invert --invert\n"
                             "small  | scene.png   | --invert --invert\n"
                             "broken | missing.png | --invert\n";
  return manifest;
}

std::string chromium() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    for (const char* name : {"chromium", "chromium-browser"})
      if (!dir.empty() && ::access((fs::path(dir) / name).c_str(), X_OK) == 0) return (fs::path(dir) / name).string();
  return "";
}

TEST(GoldenHtml, ThePageAndItsImages) {
  TempDir tmp;
  const fs::path manifest = make_manifest(tmp), out = tmp / "report";
  const RunResult r = run_binary({"golden", "check", manifest.string(), "--device", "cpu", "--html", out.string()});
  EXPECT_EQ(r.status, 2) << r.err << r.out;  // the broken case
  for (const char* name : {"index.html", "drift.expected.png", "drift.actual.png", "drift.diff.png",
                           "small.expected.png", "small.actual.png"})
    EXPECT_TRUE(fs::exists(out / name)) << name;
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(out)) ++files;
  EXPECT_EQ(files, 6u);  // no picture for a shape mismatch, none for a pass or an error
  EXPECT_EQ(read_image((out / "drift.actual.png").string()).data, read_image((tmp / "scene.png").string()).data);
  const std::string page = read_text(out / "index.html");
  EXPECT_EQ(page.find("http"), std::string::npos) << "the page must need no network";
  EXPECT_NE(page.find("4 cases: 1 passed, 2 failed, 1 error;"), std::string::npos);
  EXPECT_NE(page.find("missing.png: no such file"), std::string::npos);
}

TEST(GoldenHtml, OpensInHeadlessChromium) {
  const std::string browser = chromium();
  if (browser.empty()) {
    if (std::getenv("GPUIMG_REQUIRE_CHROMIUM")) FAIL() << "no chromium on the PATH (scripts/setup.sh --tests installs it)";
    GTEST_SKIP() << "no chromium on the PATH (scripts/setup.sh --tests installs it)";
  }
  TempDir tmp;
  const fs::path out = tmp / "report";
  run_binary({"golden", "check", make_manifest(tmp).string(), "--device", "cpu", "--html", out.string()});
  const std::string url = "file://" + (out / "index.html").string();
  const std::vector<std::string> headless = {"--headless", "--no-sandbox", "--disable-gpu",
                                             "--user-data-dir=" + (tmp / "profile").string(),
                                             "--virtual-time-budget=5000"};

  std::vector<std::string> args = headless;
  args.insert(args.end(), {"--dump-dom", url});
  const RunResult dom = run_program(browser, args);
  ASSERT_EQ(dom.status, 0) << dom.err;
  // The script counts each image as it loads: all loaded means the page
  // found them beside it on disk.
  EXPECT_NE(dom.out.find(R"(<section class="case" id="case-drift" data-case="drift" data-images-loaded="3">)"),
            std::string::npos)
      << dom.out;
  EXPECT_NE(dom.out.find(R"(<section class="case" id="case-small" data-case="small" data-images-loaded="2">)"),
            std::string::npos)
      << dom.out;
  EXPECT_EQ(dom.out.find("id=\"case-same\""), std::string::npos);
  EXPECT_EQ(dom.out.find("id=\"case-broken\""), std::string::npos);

  const fs::path shot = tmp / "shot.png";
  args = headless;
  args.insert(args.end(), {"--window-size=800,1200", "--screenshot=" + shot.string(), url});
  const RunResult taken = run_program(browser, args);
  ASSERT_EQ(taken.status, 0) << taken.err;
  const Image picture = read_image(shot.string());
  EXPECT_EQ(picture.width, 800);
  EXPECT_EQ(picture.height, 1200);
  EXPECT_NE(std::count(picture.data.begin(), picture.data.end(), 255), static_cast<long>(picture.data.size()))
      << "a blank screenshot";
}

TEST(GoldenHtml, AFolderThatCannotBeMadeIsRefusedFirst) {
  TempDir tmp;
  const fs::path manifest = make_manifest(tmp);
  std::ofstream(tmp / "taken") << "a file";
  const RunResult r = run_binary({"golden", "check", manifest.string(), "--device", "cpu", "--html",
                                  (tmp / "taken" / "report").string(), "--junit", (tmp / "j.xml").string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("gpuimg: --html: cannot create directory '", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "j.xml"));
}

}  // namespace
}  // namespace gpuimg::test
