// --report FILE: what a run did, as JSON read back with the strict reader.
// Two shards of the batch tests' folder (four good images and a corrupt
// one) between them count every file once and name the bad one once; the
// report is replaced whole, and one that cannot be written fails the run.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "batch_tree.hpp"
#include "json_reader.hpp"

namespace gpuimg::test {
namespace {

class Report : public testing::Test {
 protected:
  void SetUp() override { make_input_tree(tmp_ / "in"); }
  RunResult run(const std::vector<std::string>& words) { return run_binary(words, {tmp_.path()}); }
  Json read(const std::string& name) { return parse_json(read_bytes(tmp_ / name)); }
  TempDir tmp_;
};

double count(const Json& report, const char* key) { return report[key].number; }

// A report that could not be written is refused before the work, as an
// output in a missing folder is: nothing is processed, then lost.
TEST_F(Report, AReportPathThatCannotBeWrittenIsRefusedFirst) {
  for (const std::vector<std::string>& form :
       {std::vector<std::string>{"in/a.png", "--invert", "one.png"}, {"in/", "--invert", "out/"}}) {
    std::vector<std::string> words = form;
    words.insert(words.end(), {"--device", "cpu", "--report", "nodir/r.json"});
    const RunResult r = run(words);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.err, "gpuimg: nodir/r.json: directory 'nodir' does not exist\n");
    EXPECT_FALSE(fs::exists(tmp_ / "one.png"));
    EXPECT_FALSE(fs::exists(tmp_ / "out"));
  }
  // Written as a file replaced whole, a report never goes to a stream.
  for (const char* stream : {"-", "/dev/stdout"}) {
    const RunResult r = run({"in/a.png", "--invert", "--device", "cpu", "one.png", "--report", stream});
    EXPECT_EQ(r.status, 1) << r.err;
    const std::string named = stream == std::string("-") ? "stdout" : stream;  // as every message names "-"
    EXPECT_EQ(r.err, "gpuimg: " + named + ": is a stream or device; a report is written as a file, replaced whole\n");
    EXPECT_FALSE(fs::exists(tmp_ / "one.png"));
    EXPECT_FALSE(fs::exists(tmp_ / "-"));
  }
  fs::create_directory(tmp_ / "r.json");
  const RunResult r = run({"in/a.png", "--invert", "--device", "cpu", "one.png", "--report", "r.json"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err, "gpuimg: r.json: is a directory\n");
}

// A report inside the output folder, or a folder below it, goes into the
// folders the batch makes: the first run into a new out/ keeps its report
// there. One that names an output of the run is still refused first.
TEST_F(Report, AReportInsideANewOutputFolderIsWrittenThere) {
  for (const char* report : {"out/report.json", "out/reports/1.json"}) {
    SCOPED_TRACE(report);
    fs::remove_all(tmp_ / "out");
    const RunResult r = run({"in/", "--invert", "--device", "cpu", "out/", "--report", report});
    EXPECT_EQ(r.status, 1) << r.err;  // the tree's corrupt file
    EXPECT_EQ(count(read(report), "processed"), 4);
  }
  // Its spelling through a folder that is not there: where it leads.
  fs::remove_all(tmp_ / "out");
  EXPECT_EQ(run({"in/", "--invert", "--device", "cpu", "out/", "--report", "out/sub/../r.json"}).status, 1);
  EXPECT_EQ(count(read("out/r.json"), "processed"), 4);
  fs::remove(tmp_ / "out" / "r.json");  // and the same where out/ is there already
  EXPECT_EQ(run({"in/", "--invert", "--device", "cpu", "out/", "--report", "out/sub/../r.json"}).status, 1);
  EXPECT_EQ(count(read("out/r.json"), "processed"), 4);
  // A folder is no report, refused before the work.
  fs::remove_all(tmp_ / "out");
  const RunResult folder = run({"in/", "--invert", "--device", "cpu", "out/", "--report", "out/"});
  EXPECT_EQ(folder.status, 2) << folder.err;
  EXPECT_EQ(folder.err, "gpuimg: --report: out/ names a folder; give the report a file name\n");
  EXPECT_FALSE(fs::exists(tmp_ / "out"));
  const RunResult r = run({"in/", "--invert", "--device", "cpu", "out/", "--report", "out/a.png"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err, "gpuimg: --report: would replace out/a.png, a file this run reads or writes; give the report its "
                   "own file\n");
  EXPECT_FALSE(fs::exists(tmp_ / "out"));
}

// A report is written after the images: one named like an input or an
// output would replace that image with JSON. It is refused before the work.
TEST_F(Report, AReportNeverReplacesAnImageOfTheRun) {
  const std::string input = read_bytes(tmp_ / "in" / "a.png");
  write_bytes(tmp_ / "list.txt", "in/a.png\n");
  struct Form {
    std::vector<std::string> words;
    std::string named;
  };
  for (const Form& form : {Form{{"in/a.png", "--invert", "one.png", "--report", "in/a.png"}, "in/a.png"},
                           Form{{"in/a.png", "--invert", "one.png", "--report", "./one.png"}, "one.png"},
                           Form{{"in/", "--invert", "out/", "--report", "in/sub/../a.png"}, "in/a.png"},
                           Form{{"in/", "--invert", "out/", "--report", "out/ga.png"}, "out/ga.png"},
                           // An input of the other shard, and one skipped as done, are still the batch's.
                           Form{{"in/", "--invert", "out/", "--shard", "1/2", "--report", "in/a.png"}, "in/a.png"},
                           Form{{"in/", "--invert", "out/", "--shard", "2/2", "--report", "in/a.png"}, "in/a.png"},
                           Form{{"--files-from", "list.txt", "out/", "--invert", "--report", "list.txt"}, "list.txt"}}) {
    std::vector<std::string> words = form.words;
    words.insert(words.end(), {"--device", "cpu"});
    fs::create_directory(tmp_ / "out");  // a report's folder must exist
    const RunResult r = run(words);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, "gpuimg: --report: would replace " + form.named +
                         ", a file this run reads or writes; give the report its own file\n");
    EXPECT_EQ(read_bytes(tmp_ / "list.txt"), "in/a.png\n");
    EXPECT_EQ(read_bytes(tmp_ / "in" / "a.png"), input);
    EXPECT_FALSE(fs::exists(tmp_ / "one.png"));
    EXPECT_TRUE(fs::is_empty(tmp_ / "out"));
  }
}

TEST_F(Report, TwoShardsCountEveryFileOnceAndNameTheBadOneOnce) {
  double files = 0, processed = 0, failed = 0;
  int naming_the_bad_file = 0;
  for (const char* k : {"1", "2"}) {
    const std::string name = std::string("r") + k + ".json";
    const RunResult r = run(args(args({"in/"}, kOps), {"out/", "--shard", std::string(k) + "/2", "--report", name}));
    const Json j = read(name);
    SCOPED_TRACE(name);
    EXPECT_EQ(j["schema"].string, "gpuimg-report/1");
    EXPECT_EQ(j["mode"].string, "batch");
    EXPECT_EQ(j["shard"]["index"].number, std::stoi(k));
    EXPECT_EQ(j["shard"]["count"].number, 2);
    ASSERT_EQ(j["devices"].items.size(), 1u);
    EXPECT_EQ(j["devices"].items[0].string, "cpu");
    EXPECT_EQ(count(j, "skipped"), 0);
    EXPECT_EQ(count(j, "files"), count(j, "processed") + count(j, "failed"));
    EXPECT_EQ(count(j, "exit_status"), r.status) << r.err;
    EXPECT_TRUE(j["complete"].boolean);
    EXPECT_GT(count(j, "wall_seconds"), 0);
    EXPECT_NEAR(count(j, "images_per_second"), count(j, "processed") / count(j, "wall_seconds"), 1e-6);
    EXPECT_EQ(j["failures"].items.size(), count(j, "failed"));
    for (const Json& f : j["failures"].items) {
      EXPECT_EQ(f["file"].string, "in/sub/corrupt.png");
      EXPECT_EQ(f["reason"].string.rfind("not a recognised image", 0), 0u) << f["reason"].string;
      ++naming_the_bad_file;
    }
    files += count(j, "files");
    processed += count(j, "processed");
    failed += count(j, "failed");
  }
  EXPECT_EQ(files, 5);
  EXPECT_EQ(processed, 4);
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(naming_the_bad_file, 1);
}

TEST_F(Report, ARerunWithSkipExistingCountsTheSkippedAndReplacesTheReport) {
  run(args(args({"in/"}, kOps), {"out/", "--report", "r.json"}));
  const RunResult r = run(args(args({"in/"}, kOps), {"out/", "--skip-existing", "--report", "r.json"}));
  const Json j = read("r.json");
  EXPECT_EQ(count(j, "files"), 5) << r.err;
  EXPECT_EQ(count(j, "skipped"), 4);
  EXPECT_EQ(count(j, "processed"), 0);
  EXPECT_EQ(count(j, "failed"), 1);
  EXPECT_EQ(files_under(tmp_.path()).count("r.json"), 1u);
  for (const std::string& f : files_under(tmp_.path())) EXPECT_EQ(f.find(".gpuimg-tmp"), std::string::npos) << f;
}

TEST_F(Report, OneImageReportsItsDeviceOrItsFailure) {
  EXPECT_EQ(run(args(args({"in/a.png"}, kOps), {"a.png", "--report", "good.json"})).status, 0);
  const Json good = read("good.json");
  EXPECT_EQ(good["mode"].string, "image");
  EXPECT_EQ(count(good, "files"), 1);
  EXPECT_EQ(count(good, "processed"), 1);
  EXPECT_EQ(good["devices"].items.at(0).string, "cpu");
  EXPECT_EQ(good["shard"]["count"].number, 1);

  EXPECT_EQ(run(args(args({"in/sub/corrupt.png"}, kOps), {"c.png", "--report", "bad.json"})).status, 1);
  const Json bad = read("bad.json");
  EXPECT_EQ(count(bad, "failed"), 1);
  EXPECT_EQ(count(bad, "exit_status"), 1);
  EXPECT_EQ(bad["failures"].items.at(0)["file"].string, "in/sub/corrupt.png");
}

TEST_F(Report, AReportThatCannotBeWrittenFailsTheRunAndAnEmptyNameIsRefused) {
  // Refused before the work (AReportPathThatCannotBeWrittenIsRefusedFirst).
  const RunResult r = run(args(args({"in/a.png", "in/ga.png"}, kOps), {"out/", "--report", "no/such/r.json"}));
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err, "gpuimg: no/such/r.json: ")) << r.err;
  EXPECT_FALSE(fs::exists(tmp_ / "out"));

  const RunResult empty = run(args(args({"in/a.png"}, kOps), {"a.png", "--report", ""}));
  EXPECT_EQ(empty.status, 2);
  EXPECT_TRUE(has(empty.err, "--report: give the file")) << empty.err;
  EXPECT_FALSE(fs::exists(tmp_ / "a.png"));
}

}  // namespace
}  // namespace gpuimg::test
