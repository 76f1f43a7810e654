// Batch processing through the built binary: a generated nested folder of
// mixed images with a corrupt file and a non-image among them. Every good
// output must equal the one-image run's output byte for byte, every bad file
// be named, and nothing be written outside the output folder.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "backend.hpp"
#include "batch_items.hpp"
#include "batch_run.hpp"
#include "cli.hpp"
#include "codec.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "gpu.hpp"
#include "random_image.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// Every regular file under `dir`, relative to it, sorted.
std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.insert(e.path().lexically_relative(dir).string());
  return out;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The good images (relative path -> what they are) and the bad files.
const std::vector<std::string> kGood = {"a.png", "ga.png", "sub/b.jpg", "sub/deep/c16.png"};
const std::vector<std::string> kOps = {"--blur", "1", "--invert", "--device", "cpu"};

// tmp/in: the four good images, sub/corrupt.png (random bytes) and notes.txt.
void make_input_tree(const fs::path& in) {
  fs::create_directories(in / "sub" / "deep");
  write_image((in / "a.png").string(), random_image(37, 23, 3, Depth::U8, 1));
  write_image((in / "ga.png").string(), random_image(16, 9, 2, Depth::U8, 2));
  write_image((in / "sub" / "b.jpg").string(), random_image(40, 30, 3, Depth::U8, 3));
  write_image((in / "sub" / "deep" / "c16.png").string(), random_image(21, 17, 4, Depth::U16, 4));
  write_bytes(in / "sub" / "corrupt.png", std::string(300, '\x5a'));
  write_bytes(in / "notes.txt", "not an image\n");
}

std::vector<std::string> args(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// What gpuimg INPUT OPS OUTPUT writes for one image on its own.
std::string single_result(const fs::path& input, const std::string& extension, const std::vector<std::string>& ops) {
  TempDir tmp;
  const fs::path out = tmp / ("single." + extension);
  const RunResult r = run_binary(args(args({input.string()}, ops), {out.string()}));
  EXPECT_EQ(r.status, 0) << r.err;
  return read_bytes(out);
}

std::string summary(int processed, int failed, int skipped) {
  return "gpuimg: " + std::to_string(processed) + " processed, " + std::to_string(failed) + " failed, " +
         std::to_string(skipped) + " skipped in ";
}

class CliBatch : public testing::Test {
 protected:
  void SetUp() override { make_input_tree(tmp_ / "in"); }
  RunResult batch(const std::vector<std::string>& extra) {
    return run_binary(args(args({"in/"}, kOps), args({"out/", "--jobs", "3"}, extra)), {tmp_.path()});
  }
  TempDir tmp_;
};

TEST_F(CliBatch, EveryGoodOutputEqualsTheSingleImageRunAndTheBadFileIsNamed) {
  const RunResult r = batch({});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(has(r.err, "gpuimg: in/sub/corrupt.png: not a recognised image")) << r.err;
  EXPECT_TRUE(has(r.err, summary(4, 1, 0))) << r.err;
  EXPECT_FALSE(has(r.err, "notes.txt")) << r.err;
  EXPECT_FALSE(has(r.err, "\r")) << "no progress line when stderr is not a terminal: " << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  EXPECT_EQ(files_under(tmp_ / "out"), std::set<std::string>(kGood.begin(), kGood.end()));
  for (const std::string& rel : kGood) {
    SCOPED_TRACE(rel);
    EXPECT_EQ(read_bytes(tmp_ / "out" / rel), single_result(tmp_ / "in" / rel, lower_extension(rel), kOps));
  }
}

TEST_F(CliBatch, FormatOverrideRenamesAndMatchesTheSingleImageRun) {
  const RunResult r = batch({"--format", "jpg", "--quality", "80", "--no-recursive"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.err, summary(2, 0, 0))) << r.err;
  EXPECT_EQ(files_under(tmp_ / "out"), (std::set<std::string>{"a.jpg", "ga.jpg"}));
  for (const char* name : {"a", "ga"})
    EXPECT_EQ(read_bytes(tmp_ / "out" / (std::string(name) + ".jpg")),
              single_result(tmp_ / "in" / (std::string(name) + ".png"), "jpg", args(kOps, {"--quality", "80"})))
        << name;
}

TEST_F(CliBatch, SeveralFilesIntoAnExistingFolder) {
  fs::create_directory(tmp_ / "dest");
  const RunResult r = run_binary(args({"in/a.png", "in/sub/b.jpg"}, args(kOps, {"dest"})), {tmp_.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.err, summary(2, 0, 0))) << r.err;
  EXPECT_EQ(files_under(tmp_ / "dest"), (std::set<std::string>{"a.png", "b.jpg"}));
}

TEST_F(CliBatch, AMissingInputIsOneFailedFile) {
  const RunResult r = run_binary(args({"in/a.png", "nothere/", "gone.png"}, args(kOps, {"out/"})), {tmp_.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, "gpuimg: nothere/: no such file")) << r.err;
  EXPECT_TRUE(has(r.err, "gpuimg: gone.png: no such file")) << r.err;
  EXPECT_TRUE(has(r.err, summary(1, 2, 0))) << r.err;
  EXPECT_EQ(files_under(tmp_ / "out"), std::set<std::string>{"a.png"});
}

TEST_F(CliBatch, HostileListedPathsAreRefusedAndNothingLeavesTheOutputFolder) {
  fs::create_directory(tmp_ / "work");
  fs::copy_file(tmp_ / "in" / "a.png", tmp_ / "outside.png");
  write_bytes(tmp_ / "work" / "list.txt",
              "../outside.png\n" + (tmp_ / "in" / "ga.png").string() + "\n../in/a.png\nsub/../../x.png\n");
  fs::create_directories(tmp_ / "work" / "sub");
  const auto before = files_under(tmp_.path());
  const RunResult r = run_binary(args({"--files-from", "list.txt"}, args(kOps, {"out/"})), {tmp_ / "work"});
  EXPECT_EQ(r.status, 1) << r.err;
  for (const char* named : {"../outside.png", "/in/ga.png", "../in/a.png", "sub/../../x.png"})
    EXPECT_TRUE(has(r.err, named + std::string(": would be written outside the output folder"))) << named << r.err;
  EXPECT_TRUE(has(r.err, summary(0, 4, 0))) << r.err;
  std::set<std::string> after = files_under(tmp_.path());
  EXPECT_EQ(after, before) << "a file was created";
}

TEST_F(CliBatch, SkipExistingSkipsExactlyTheExistingOutputs) {
  fs::create_directories(tmp_ / "out" / "sub");
  write_bytes(tmp_ / "out" / "a.png", "old");
  write_bytes(tmp_ / "out" / "sub" / "b.jpg", "old");
  const RunResult r = batch({"--skip-existing"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, summary(2, 1, 2))) << r.err;
  EXPECT_EQ(read_bytes(tmp_ / "out" / "a.png"), "old");
  EXPECT_EQ(read_bytes(tmp_ / "out" / "sub" / "b.jpg"), "old");
  EXPECT_EQ(files_under(tmp_ / "out"), std::set<std::string>(kGood.begin(), kGood.end()));
}

TEST_F(CliBatch, AnOutputFolderThatCannotBeMadeFailsThoseFilesAlone) {
  fs::create_directory(tmp_ / "out");
  write_bytes(tmp_ / "out" / "sub", "a file where a folder must go");
  const RunResult r = batch({});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, "gpuimg: out/sub/b.jpg: cannot create its folder: not a directory\n")) << r.err;
  EXPECT_TRUE(has(r.err, summary(2, 3, 0))) << r.err;
  EXPECT_EQ(files_under(tmp_ / "out"), (std::set<std::string>{"a.png", "ga.png", "sub"}));
}

TEST_F(CliBatch, ShardsCoverEveryFileExactlyOnce) {
  std::multiset<std::string> outputs;
  int failures = 0;
  for (int k = 1; k <= 3; ++k) {
    const std::string dir = "out" + std::to_string(k) + "/";
    const RunResult r = run_binary(args(args({"in/"}, kOps), {dir, "--shard", std::to_string(k) + "/3"}), {tmp_.path()});
    EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
    failures += has(r.err, "in/sub/corrupt.png: ") ? 1 : 0;
    for (const std::string& f : files_under(tmp_ / dir)) outputs.insert(f);
  }
  EXPECT_EQ(failures, 1);
  EXPECT_EQ(outputs, std::multiset<std::string>(kGood.begin(), kGood.end()));
}

TEST_F(CliBatch, ProgressOnlyWhenForced) {
  const RunResult plain = batch({});
  EXPECT_FALSE(has(plain.err, "\r")) << plain.err;
  const RunResult forced = batch({"--progress"});
  EXPECT_TRUE(has(forced.err, "\r")) << forced.err;
  EXPECT_TRUE(has(forced.err, "/5  ")) << forced.err;
  const RunResult quiet = batch({"--quiet"});
  EXPECT_FALSE(has(quiet.err, "\r")) << quiet.err;
}

TEST_F(CliBatch, FailFastStopsAtTheFirstFailure) {
  // The corrupt file sorts before sub/deep: with one job nothing after it runs.
  const RunResult r =
      run_binary(args({"in/sub/corrupt.png", "in/sub/deep/c16.png"}, args(kOps, {"out/", "--jobs", "1", "--fail-fast"})),
                 {tmp_.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, summary(0, 1, 0))) << r.err;
  EXPECT_EQ(files_under(tmp_ / "out"), std::set<std::string>{});
}

struct BadBatch {
  const char* name;
  std::vector<std::string> args;
  const char* part;
};

class CliBatchUsage : public testing::TestWithParam<BadBatch> {};

TEST_P(CliBatchUsage, FailsWithStatusTwo) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  const RunResult r = run_binary(GetParam().args, {tmp.path()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, GetParam().part)) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

INSTANTIATE_TEST_SUITE_P(
    , CliBatchUsage,
    testing::Values(BadBatch{"shard_zero", {"in/", "out/", "--shard", "0/3"}, "--shard"},
                    BadBatch{"shard_over", {"in/", "out/", "--shard", "4/3"}, "--shard"},
                    BadBatch{"shard_no_count", {"in/", "out/", "--shard", "3"}, "--shard"},
                    BadBatch{"jobs_zero", {"in/", "out/", "--jobs", "0"}, "--jobs"},
                    BadBatch{"format_unknown", {"in/", "out/", "--format", "xyz"}, "--format"},
                    BadBatch{"several_inputs_into_a_file", {"in/a.png", "in/ga.png", "out"}, "output folder"},
                    BadBatch{"batch_option_on_one_image", {"in/a.png", "out.png", "--jobs", "2"}, "--jobs"}),
    [](const testing::TestParamInfo<BadBatch>& info) { return std::string(info.param.name); });

// Ctrl-C in the middle of a long batch: status 130, every output there is
// complete (it equals the one-image result), no temporary is left, and a
// rerun with --skip-existing does exactly the rest.
TEST(CliBatchInterrupt, StopsPromptlyLeavingNoPartialFile) {
  TempDir tmp;
  fs::create_directory(tmp / "in");
  write_image((tmp / "in" / "000.png").string(), random_image(300, 200, 3, Depth::U8, 7));
  constexpr int kFiles = 300;
  for (int i = 1; i < kFiles; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "%03d.png", i);
    fs::copy_file(tmp / "in" / "000.png", tmp / "in" / name);
  }
  const std::vector<std::string> ops = {"--blur", "8", "--device", "cpu"};
  std::vector<std::string> words = args(args({GPUIMG_BINARY, "in/"}, ops), {"out/", "--jobs", "2"});
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const std::string dir = tmp.path().string();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0 && ::dup2(null, 0) == 0 && ::dup2(null, 1) == 1 && ::dup2(null, 2) == 2 && ::chdir(dir.c_str()) == 0)
      ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // Wait for the first outputs, then interrupt.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (files_under(tmp / "out").size() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(pid, SIGINT);
  const auto sent = std::chrono::steady_clock::now();
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count(), 5.0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);

  const std::set<std::string> written = files_under(tmp / "out");
  EXPECT_GE(written.size(), 3u);
  EXPECT_LT(written.size(), static_cast<std::size_t>(kFiles)) << "the run was not interrupted";
  const std::string expected = single_result(tmp / "in" / "000.png", "png", ops);
  for (const std::string& f : written) {
    EXPECT_EQ(f.find(".gpuimg-tmp"), std::string::npos) << "temporary left: " << f;
    EXPECT_EQ(read_bytes(tmp / "out" / f), expected) << f << " is partial or wrong";
  }

  const RunResult rest = run_binary(args(args({"in/"}, ops), {"out/", "--skip-existing"}), {tmp.path()});
  EXPECT_EQ(rest.status, 0) << rest.err;
  EXPECT_TRUE(has(rest.err, summary(kFiles - static_cast<int>(written.size()), 0, static_cast<int>(written.size()))))
      << rest.err;
  EXPECT_EQ(files_under(tmp / "out").size(), static_cast<std::size_t>(kFiles));
}

// ---- which form runs -----------------------------------------------------------

// Whether parse_command_line chose the batch form for `args`, run in `dir`.
bool chooses_batch(const fs::path& dir, std::vector<std::string> args) {
  const fs::path here = fs::current_path();
  fs::current_path(dir);
  std::vector<const char*> argv = {"gpuimg"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStderr();
  const ParseResult r = parse_command_line(static_cast<int>(argv.size()), argv.data());
  const std::string err = testing::internal::GetCapturedStderr();
  fs::current_path(here);
  EXPECT_EQ(err, "");
  EXPECT_NE(r.run, r.batch.has_value());
  return r.batch.has_value();
}

TEST(BatchForm, ChosenOnlyByTheDocumentedRules) {
  TempDir tmp;
  fs::create_directory(tmp / "dir");
  fs::create_directory(tmp / "dir.png");
  EXPECT_FALSE(chooses_batch(tmp.path(), {"a.png", "--invert", "b.png"}));
  EXPECT_FALSE(chooses_batch(tmp.path(), {"a.png", "dir.png"})) << "a directory named like an image is not a folder";
  EXPECT_FALSE(chooses_batch(tmp.path(), {"dir", "b.png"})) << "a folder INPUT alone does not choose it";
  EXPECT_TRUE(chooses_batch(tmp.path(), {"a.png", "dir"}));
  EXPECT_TRUE(chooses_batch(tmp.path(), {"a.png", "missing/"}));
  EXPECT_TRUE(chooses_batch(tmp.path(), {"a.png", "dir.png/"}));
  EXPECT_TRUE(chooses_batch(tmp.path(), {"a.png", "b.png", "dir.png"}));
  EXPECT_TRUE(chooses_batch(tmp.path(), {"--files-from", "-", "--invert", "dir"}));
}

// ---- the planning rules, directly -------------------------------------------

TEST(BatchPlan, OutputPathsStayInsideTheFolder) {
  EXPECT_EQ(map_output("out", "a/b.png", "jpg"), "out/a/b.jpg");
  EXPECT_EQ(map_output("out/", "./a/./b.png", "png"), "out/a/b.png");
  for (const char* bad : {"../a.png", "a/../../b.png", "/etc/a.png", "", ".", "a/.."}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(map_output("out", bad, "png"), OutputError);
  }
}

TEST(BatchPlan, ShardsPartitionTheSortedList) {
  std::vector<BatchItem> items;
  for (int i = 0; i < 10; ++i) items.push_back({std::to_string(i), "", ""});
  std::multiset<std::string> seen;
  for (int k = 1; k <= 4; ++k)
    for (const BatchItem& item : take_shard(items, parse_shard(std::to_string(k) + "/4"))) seen.insert(item.input);
  EXPECT_EQ(seen.size(), 10u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 10u);
  for (const char* bad : {"0/4", "5/4", "1/0", "1", "/4", "a/b", "1/4x", "-1/4"}) EXPECT_THROW(parse_shard(bad), UsageError) << bad;
}

TEST(BatchPlan, TwoInputsForOneOutputFailTheLater) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  const std::vector<BatchItem> items =
      plan_batch({{(tmp / "in" / "a.png").string(), (tmp / "in" / "sub" / "b.jpg").string()}, {}, true},
                 (tmp / "out").string(), "png");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].problem, "");
  EXPECT_EQ(items[1].problem, "");
  const std::vector<BatchItem> clash = plan_batch(
      {{(tmp / "in" / "a.png").string()}, {"a.png"}, true}, (tmp / "out").string(), "");
  ASSERT_EQ(clash.size(), 2u);
  EXPECT_EQ(clash[0].problem, "");  // the absolute path sorts first
  EXPECT_NE(clash[1].problem.find("a.png: its output " + (tmp / "out" / "a.png").string() + " is also"),
            std::string::npos)
      << clash[1].problem;
}

// ---- the staged pipeline (the CUDA shape) on the CPU ---------------------------

struct Tally {
  std::atomic<int> processed{0}, failed{0};
  ReportFn report() {
    return [this](const BatchItem&, Outcome o, const std::string&) { ++(o == Outcome::processed ? processed : failed); };
  }
};

BatchSettings cpu_settings(int jobs) {
  BatchSettings settings;
  settings.pipeline = {parse_stage("blur", {"1"}), parse_stage("invert", {})};
  settings.jobs = jobs;
  return settings;
}

TEST(BatchStaged, GivesTheSameBytesAsTheWorkers) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  const BatchSettings settings = cpu_settings(2);
  const auto never = [] { return false; };
  Tally workers, staged;
  run_batch(plan_batch({{tmp.file("in")}, {}, true}, tmp.file("workers"), ""), settings, never, workers.report());
  run_batch_staged(plan_batch({{tmp.file("in")}, {}, true}, tmp.file("staged"), ""), settings,
                   [&](Image& img) { run_cpu(img, settings.pipeline); }, never, staged.report());
  EXPECT_EQ(staged.processed, 4);
  EXPECT_EQ(staged.failed, 1);
  EXPECT_EQ(workers.processed, 4);
  ASSERT_EQ(files_under(tmp / "staged"), std::set<std::string>(kGood.begin(), kGood.end()));
  for (const std::string& rel : kGood) EXPECT_EQ(read_bytes(tmp / "staged" / rel), read_bytes(tmp / "workers" / rel)) << rel;
}

std::vector<BatchItem> many_items(const TempDir& tmp, int n) {
  fs::create_directory(tmp / "in");
  write_image(tmp.file("in/000.png"), random_image(64, 48, 3, Depth::U8, 9));
  for (int i = 1; i < n; ++i) fs::copy_file(tmp / "in" / "000.png", tmp / "in" / (std::to_string(1000 + i) + ".png"));
  return plan_batch({{tmp.file("in")}, {}, true}, tmp.file("out"), "");
}

// A failing device stops everything: no thread is left waiting on a queue,
// and the error comes back to the caller.
TEST(BatchStaged, ADeviceErrorStopsTheBatchAndIsRethrown) {
  TempDir tmp;
  const std::vector<BatchItem> items = many_items(tmp, 60);
  std::atomic<int> calls{0};
  Tally tally;
  const auto process = [&](Image&) {
    if (++calls == 3) throw DeviceError("cudaMemcpy: an illegal memory access was encountered");
  };
  EXPECT_THROW(run_batch_staged(items, cpu_settings(3), process, [] { return false; }, tally.report()), DeviceError);
  EXPECT_EQ(calls, 3);
  EXPECT_LE(tally.processed, 2);
  EXPECT_EQ(tally.failed, 0);
}

TEST(BatchStaged, StopsTakingFilesOnceAskedTo) {
  TempDir tmp;
  const std::vector<BatchItem> items = many_items(tmp, 60);
  Tally tally;
  const auto stop = [&] { return tally.processed >= 2; };
  run_batch_staged(items, cpu_settings(2), [](Image&) {}, stop, tally.report());
  EXPECT_GE(tally.processed, 2);
  EXPECT_LT(tally.processed, 60);
  EXPECT_EQ(files_under(tmp / "out").size(), static_cast<std::size_t>(tally.processed.load()));
}

// ---- the GPU: one context, decode and encode threads around it --------------

TEST(CliGpuBatch, CudaOutputsEqualCpuOutputs) {
  GPUIMG_REQUIRE_GPU();
  TempDir tmp;
  make_input_tree(tmp / "in");
  const RunResult cpu = run_binary({"in/", "--blur", "2", "--sharpen", "0.5", "--device", "cpu", "cpu/"}, {tmp.path()});
  const RunResult gpu = run_binary({"in/", "--blur", "2", "--sharpen", "0.5", "--device", "cuda", "gpu/"}, {tmp.path()});
  EXPECT_EQ(cpu.status, 1) << cpu.err;
  EXPECT_EQ(gpu.status, 1) << gpu.err;
  EXPECT_TRUE(has(gpu.err, summary(4, 1, 0))) << gpu.err;
  ASSERT_EQ(files_under(tmp / "gpu"), std::set<std::string>(kGood.begin(), kGood.end()));
  for (const std::string& rel : kGood) EXPECT_EQ(read_bytes(tmp / "gpu" / rel), read_bytes(tmp / "cpu" / rel)) << rel;
}

}  // namespace
}  // namespace gpuimg::test
