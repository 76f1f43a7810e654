// gpuimg report merge: the reports of two real shards of the batch tests'
// folder (four good images and a corrupt one) as one table or one JSON
// document; the failed file named once; reports missing, unreadable, of
// another schema or of shards that do not fit refused with one line, exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "batch_tree.hpp"
#include "json_reader.hpp"

namespace gpuimg::test {
namespace {

class Merge : public testing::Test {
 protected:
  void SetUp() override {
    make_input_tree(tmp_ / "in");
    for (const char* k : {"1", "2"})
      run(args(args({"in/"}, kOps), {"out/", "--shard", std::string(k) + "/2", "--report", std::string("r") + k + ".json"}));
  }
  RunResult run(const std::vector<std::string>& words) { return run_binary(words, {tmp_.path()}); }
  RunResult merge(const std::vector<std::string>& reports) { return run(args({"report", "merge"}, reports)); }
  // r1.json with `from` replaced by `to`, as NAME.
  void altered(const std::string& name, const std::string& from, const std::string& to) {
    std::string text = read_bytes(tmp_ / "r1.json");
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    write_bytes(tmp_ / name, text.replace(at, from.size(), to));
  }
  void expect_refused(const RunResult& r, const std::string& line) {
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "gpuimg: " + line + "\n");
  }
  TempDir tmp_;
};

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST_F(Merge, TheTableSumsTheShardsAndTheFailedFileIsNamedOnce) {
  const RunResult r = merge({"r2.json", "r1.json"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(occurrences(r.err, "gpuimg: in/sub/corrupt.png: not a recognised image"), 1u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out.rfind("shard ", 0), 0u) << r.out;
  EXPECT_LT(r.out.find("\n1/2 "), r.out.find("\n2/2 ")) << "in shard order: " << r.out;
  const std::size_t all = r.out.find("\nall ");
  ASSERT_NE(all, std::string::npos) << r.out;
  std::istringstream row(r.out.substr(all + 1));
  std::string name, devices;
  int files = 0, processed = 0, failed = 0, skipped = 0;
  row >> name >> devices >> files >> processed >> failed >> skipped;
  EXPECT_EQ(devices, "cpu");
  EXPECT_EQ(files, 5);
  EXPECT_EQ(processed, 4);
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(skipped, 0);
}

// A report holds names in printable() form; the merge reads them back as
// bytes, so its messages and JSON escape an odd byte once, not twice.
TEST_F(Merge, AnOddByteInANameIsEscapedOnce) {
  const bool first = read_bytes(tmp_ / "r1.json").find("corrupt.png") != std::string::npos;
  std::string text = read_bytes(tmp_ / (first ? "r1.json" : "r2.json"));
  const std::size_t at = text.find("corrupt.png");
  write_bytes(tmp_ / "odd.json", text.replace(at, 11, R"(c\\x01rrupt.png)"));
  RunResult r = merge({first ? "r2.json" : "odd.json", first ? "odd.json" : "r1.json"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(occurrences(r.err, "gpuimg: in/sub/c\\x01rrupt.png: not a recognised image"), 1u) << r.err;
  r = merge({first ? "r2.json" : "odd.json", first ? "odd.json" : "r1.json", "--json"});
  EXPECT_EQ(occurrences(r.out, R"("in/sub/c\\x01rrupt.png")"), 2u) << "in the shard and in the whole: " << r.out;
}

TEST_F(Merge, JsonIsOneDocumentOfTheSchemaWithEachShard) {
  const RunResult r = merge({"r2.json", "r1.json", "--json"});
  EXPECT_EQ(r.status, 1) << r.err;
  const Json j = parse_json(r.out);
  EXPECT_EQ(j["schema"].string, "gpuimg-report/1");
  EXPECT_EQ(j["mode"].string, "merged");
  EXPECT_EQ(j["files"].number, 5);
  EXPECT_EQ(j["processed"].number, 4);
  EXPECT_EQ(j["failed"].number, 1);
  EXPECT_EQ(j["exit_status"].number, 1);
  EXPECT_TRUE(j["complete"].boolean);
  ASSERT_EQ(j["failures"].items.size(), 1u);
  EXPECT_EQ(j["failures"].items[0]["file"].string, "in/sub/corrupt.png");
  ASSERT_EQ(j["shards"].items.size(), 2u);
  EXPECT_EQ(j["shards"].items[0]["shard"]["index"].number, 1);
  EXPECT_EQ(j["shards"].items[1]["shard"]["index"].number, 2);
  const double longest =
      std::max(j["shards"].items[0]["wall_seconds"].number, j["shards"].items[1]["wall_seconds"].number);
  EXPECT_EQ(j["wall_seconds"].number, longest);
}

TEST_F(Merge, NoFailureExitsZeroAndAShardThatDidNotFinishExitsOne) {
  fs::remove(tmp_ / "in" / "sub" / "corrupt.png");
  for (const char* k : {"1", "2"})
    run(args(args({"in/"}, kOps), {"ok/", "--shard", std::string(k) + "/2", "--report", std::string("r") + k + ".json"}));
  const RunResult good = merge({"r1.json", "r2.json"});
  EXPECT_EQ(good.status, 0) << good.err;
  EXPECT_EQ(good.err, "");

  altered("stopped.json", "\"complete\": true", "\"complete\": false");
  const RunResult stopped = merge({"stopped.json", "r2.json"});
  EXPECT_EQ(stopped.status, 1);
  EXPECT_TRUE(has(stopped.err, "gpuimg: shard 1/2 did not finish")) << stopped.err;
}

TEST_F(Merge, AReportMissingUnreadableOrOfAnotherSchemaIsRefusedByName) {
  expect_refused(merge({"r1.json", "r3.json"}), "r3.json: no such file");
  write_bytes(tmp_ / "cut.json", read_bytes(tmp_ / "r2.json").substr(0, 40));
  const RunResult cut = merge({"r1.json", "cut.json"});
  EXPECT_EQ(cut.status, 2);
  EXPECT_TRUE(has(cut.err, "gpuimg: cut.json: not a gpuimg report: invalid JSON")) << cut.err;
  altered("v2.json", "gpuimg-report/1", "gpuimg-report/2");
  expect_refused(merge({"v2.json", "r2.json"}),
                 "v2.json: not a gpuimg report: schema 'gpuimg-report/2', where this gpuimg reads 'gpuimg-report/1'");
  altered("no-count.json", "\"processed\"", "\"done\"");
  expect_refused(merge({"no-count.json", "r2.json"}), "no-count.json: not a gpuimg report: no member 'processed'");
}

TEST_F(Merge, ShardsThatDoNotMakeOneRunAreRefused) {
  expect_refused(merge({"r1.json"}), "shard 2/2: no report given");
  expect_refused(merge({"r1.json", "r2.json", "r1.json"}), "r1.json: shard 1/2 again, as in r1.json");
  altered("of3.json", "\"count\": 2", "\"count\": 3");
  expect_refused(merge({"r2.json", "of3.json"}), "of3.json: shard 1/3, where r2.json is one of 2");
}

// A shard's report left from an earlier run (the shard of this one died
// before writing its own) is another run's: other operations, files or
// output folder. Reports from before the run identity have none, and merge.
TEST_F(Merge, AShardOfAnotherRunIsRefused) {
  const std::string another = "shard 2/2 of another run than r1.json's: the files, operations, output folder or "
                              "options differ (an earlier run's report, left where this run's shard wrote none?)";
  std::vector<std::vector<std::string>> others = {
      {"in/", "--blur", "2", "out/"}, {"in/", "--invert", "out2/"}, {"in/a.png", "in/ga.png", "--invert", "out/"}};
  // Options that change what is written: the same files and operations.
  for (const std::vector<std::string>& option : std::vector<std::vector<std::string>>{
           {"--depth", "16"}, {"--strip"}, {"--quality", "80"}, {"--jpeg-subsample", "420"}, {"--png-level", "9"},
           {"--no-auto-orient"}, {"--max-pixels", "1000000"}, {"--frame", "0"}})
    others.push_back(args(args(args({"in/"}, kOps), {"out/"}), option));
  for (const std::vector<std::string>& other : others) {
    SCOPED_TRACE(testing::PrintToString(other));
    run(args(other, {"--shard", "2/2", "--report", "other.json"}));
    expect_refused(merge({"r1.json", "other.json"}), "other.json: " + another);
  }
  // The same command line again gives the same identity.
  run(args(args({"in/"}, kOps), {"out/", "--shard", "2/2", "--report", "again.json"}));
  EXPECT_EQ(merge({"r1.json", "again.json"}).status, 1);  // the tree's corrupt file
  const Json merged = parse_json(merge({"r1.json", "r2.json", "--json"}).out);
  EXPECT_EQ(merged["run"].string, parse_json(read_bytes(tmp_ / "r1.json"))["run"].string);
  EXPECT_EQ(merged["run"].string.size(), 16u);
  std::string text = read_bytes(tmp_ / "other.json");
  const std::size_t at = text.find("  \"run\": ");
  ASSERT_NE(at, std::string::npos);
  write_bytes(tmp_ / "old.json", text.erase(at, text.find('\n', at) + 1 - at));
  const RunResult old = merge({"r1.json", "old.json"});
  EXPECT_NE(old.status, 2) << "a report without the identity is not compared: " << old.err;
  // Given first, one without it leaves the others compared with each other.
  for (const char* k : {"1", "2", "3"})
    run(args(args({"in/"}, kOps), {"out/", "--shard", std::string(k) + "/3", "--report", std::string("t") + k + ".json"}));
  run({"in/", "--blur", "2", "out/", "--shard", "3/3", "--report", "b3.json"});
  text = read_bytes(tmp_ / "t1.json");
  write_bytes(tmp_ / "t1old.json", text.erase(text.find("  \"run\": "), text.find('\n', text.find("  \"run\": ")) + 1 - text.find("  \"run\": ")));
  for (const std::vector<std::string>& order : {std::vector<std::string>{"t1old.json", "t2.json", "b3.json"},
                                                {"b3.json", "t2.json", "t1old.json"}}) {
    const RunResult r = merge(order);
    EXPECT_EQ(r.status, 2) << order[0] << r.err;
    EXPECT_NE(r.err.find("of another run than"), std::string::npos) << r.err;
  }
  EXPECT_NE(merge({"t1old.json", "t2.json", "t3.json"}).status, 2);
}

}  // namespace
}  // namespace gpuimg::test
