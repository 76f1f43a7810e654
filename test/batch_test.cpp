// Batch processing through the built binary: a generated nested folder of
// mixed images with a corrupt file and a non-image among them. Every good
// output must equal the one-image run's output byte for byte, every bad file
// be named, and nothing be written outside the output folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "batch_items.hpp"
#include "batch_tree.hpp"
#include "cli.hpp"
#include "error.hpp"
#include "file_util.hpp"

namespace gpuimg::test {
namespace {

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

// find "$PWD" lists absolute paths: inside the current folder they are
// written relative to it; outside, still refused.
TEST_F(CliBatch, ListedAbsolutePathsInsideTheCurrentFolderAreMirroredRelativeToIt) {
  const fs::path here = fs::canonical(tmp_.path());
  write_bytes(tmp_ / "list.txt", (here / "in" / "a.png").string() + "\n" + (here / "in" / "sub" / "b.jpg").string() +
                                     "\n" + (here / "in" / ".." / "in" / "ga.png").string() + "\n");
  const RunResult r = run_binary(args({"--files-from", "list.txt"}, args(kOps, {"out/"})), {tmp_.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(files_under(tmp_ / "out"), (std::set<std::string>{"in/a.png", "in/ga.png", "in/sub/b.jpg"}));
  // From a folder below, two of them lie outside it.
  const RunResult below =
      run_binary(args({"--files-from", "../../list.txt"}, args(kOps, {"out/"})), {tmp_ / "in" / "sub"});
  EXPECT_EQ(below.status, 1) << below.err;
  EXPECT_TRUE(has(below.err, (here / "in" / "a.png").string() + ": would be written outside the output folder"))
      << below.err;
  EXPECT_TRUE(has(below.err, summary(1, 2, 0))) << below.err;
  EXPECT_EQ(files_under(tmp_ / "in" / "sub" / "out"), std::set<std::string>{"b.jpg"});
}

// find /abs/photos lists absolute paths outside the current folder:
// --files-base names the folder they are relative to, and a relative listed
// path is read from inside it. Outside it, still refused; given relative,
// the base is taken from the current folder.
TEST_F(CliBatch, FilesBaseAnchorsTheListedPaths) {
  const fs::path here = fs::canonical(tmp_.path());
  fs::create_directory(tmp_ / "work");
  fs::copy_file(tmp_ / "in" / "a.png", tmp_ / "outside.png");
  // The base itself, as find lists it first, is refused under its own name.
  write_bytes(tmp_ / "work" / "list.txt", (here / "in").string() + "\n" + (here / "in" / "a.png").string() +
                                              "\nsub/b.jpg\n" + (here / "outside.png").string() + "\n../outside.png\n");
  for (const std::string& base : {(here / "in").string(), std::string("../in/")}) {
    SCOPED_TRACE(base);
    fs::remove_all(tmp_ / "work" / "out");
    const RunResult r =
        run_binary(args({"--files-from", "list.txt", "--files-base", base}, args(kOps, {"out/"})), {tmp_ / "work"});
    EXPECT_EQ(r.status, 1) << r.err;
    for (const std::string& named : {(here / "in").string(), (here / "outside.png").string(), std::string("../outside.png")})
      EXPECT_TRUE(has(r.err, "gpuimg: " + named + ": would be written outside the output folder (give a relative path "
                             "without '..', or an absolute one inside --files-base's folder, " + base + ")\n"))
          << r.err;
    EXPECT_TRUE(has(r.err, summary(2, 3, 0))) << r.err;
    EXPECT_EQ(files_under(tmp_ / "work" / "out"), (std::set<std::string>{"a.png", "sub/b.jpg"}));
    EXPECT_EQ(read_bytes(tmp_ / "work" / "out" / "sub" / "b.jpg"), single_result(tmp_ / "in" / "sub" / "b.jpg", "jpg", kOps));
  }
}

// A folder reached through a link: find "$PWD" lists it as the shell
// spells it ($PWD), where the process's own current folder is the linked
// one; --files-base given through a link takes paths listed either way.
TEST_F(CliBatch, ListedPathsThroughALinkedFolderAreInsideIt) {
  const fs::path here = fs::canonical(tmp_.path());
  fs::create_directory_symlink("in", tmp_ / "lnk");
  write_bytes(tmp_ / "list.txt", (here / "lnk" / "a.png").string() + "\n" + (here / "lnk" / "sub" / "b.jpg").string() + "\n");
  RunOptions options{tmp_ / "lnk"};
  options.env = {"PWD=" + (here / "lnk").string()};
  const RunResult r = run_binary(args({"--files-from", "../list.txt"}, args(kOps, {"../out/"})), options);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(files_under(tmp_ / "out"), (std::set<std::string>{"a.png", "sub/b.jpg"}));
  // A $PWD that names another folder is no spelling of this one.
  options.env = {"PWD=/"};
  const RunResult other = run_binary(args({"--files-from", "../list.txt"}, args(kOps, {"../out2/"})), options);
  EXPECT_EQ(other.status, 1) << other.err;
  EXPECT_TRUE(has(other.err, (here / "lnk" / "a.png").string() + ": would be written outside the output folder (give a "
                             "relative path without '..', or an absolute one inside the current folder, or name "
                             "their folder with --files-base)\n"))
      << other.err;
  write_bytes(tmp_ / "real.txt", (here / "in" / "a.png").string() + "\n");
  const RunResult linked =
      run_binary(args({"--files-from", "real.txt", "--files-base", "lnk"}, args(kOps, {"out3/"})), {tmp_.path()});
  EXPECT_EQ(linked.status, 0) << linked.err;
  EXPECT_EQ(files_under(tmp_ / "out3"), std::set<std::string>{"a.png"});
}

// A listed line that ends in a blank names a file whose name ends so; where
// there is none, the message says why the path looks right and is not.
TEST_F(CliBatch, AListedLineEndingInABlankIsMissingAndSaysSo) {
  write_bytes(tmp_ / "list.txt", "in/a.png\nin/a.png \nin/ga.png\t\n");
  const RunResult r = run_binary(args({"--files-from", "list.txt"}, args(kOps, {"out/"})), {tmp_.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  const std::string why = ": no such file (its line in the list ends in a space or tab, which is part of the name)\n";
  EXPECT_TRUE(has(r.err, "gpuimg: in/a.png " + why)) << r.err;
  EXPECT_TRUE(has(r.err, "gpuimg: in/ga.png\\t" + why)) << r.err;
  EXPECT_TRUE(has(r.err, summary(1, 2, 0))) << r.err;
}

TEST_F(CliBatch, FilesBaseIsRefusedWithoutAListOrAFolder) {
  write_bytes(tmp_ / "list.txt", "in/a.png\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"in/a.png", "in/ga.png", "--files-base", "in", "out/"}, "gpuimg: --files-base: names the folder that --files-from's"},
      {{"--files-from", "list.txt", "--files-base", "nothere", "out/"},
       "gpuimg: nothere: --files-base names a folder, and there is none of that name"},
      {{"--files-from", "list.txt", "--files-base", "in/a.png", "out/"},
       "gpuimg: in/a.png: --files-base names a folder, and this is not one"},
      {{"in/a.png", "--files-base", "in", "out.png"}, "gpuimg: --files-base: names the folder that --files-from's"},
      {{"--files-base", "in", "--invert", "out/"}, "gpuimg: --files-base: names the folder that --files-from's"},
      {{"--files-from", "list.txt", "--files-base", "", "out/"}, "gpuimg: --files-base: give a folder"},
  };
  const auto before = files_under(tmp_.path());
  for (const auto& [words, message] : cases) {
    const RunResult r = run_binary(words, {tmp_.path()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.rfind(message, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(files_under(tmp_.path()), before) << "a file was created";
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

// Folders made for outputs that then failed are removed; a folder that was
// there before stays, empty or not, and so does one that got an output.
TEST_F(CliBatch, FailedFilesLeaveNoFolderMadeForThem) {
  fs::create_directories(tmp_ / "out" / "in" / "keep");
  write_bytes(tmp_ / "list", "in/a.png\nin/sub/corrupt.png\nin/sub/deep/missing.png\n");
  const RunResult r = run_binary(args({"--files-from", "list"}, args(kOps, {"out/"})), {tmp_.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, summary(1, 2, 0))) << r.err;
  EXPECT_TRUE(fs::exists(tmp_ / "out" / "in" / "a.png"));
  EXPECT_TRUE(fs::is_directory(tmp_ / "out" / "in" / "keep"));
  EXPECT_FALSE(fs::exists(tmp_ / "out" / "in" / "sub"));
}

// Nothing written: not even the output folder, nor the parents made for it.
TEST_F(CliBatch, ABatchThatWritesNothingLeavesNoFolder) {
  const RunResult r = run_binary(args({"in/sub/corrupt.png"}, args(kOps, {"new/out/"})), {tmp_.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_FALSE(fs::exists(tmp_ / "new"));
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
  const RunResult forced = batch({"--progress"});  // into a pipe: lines of their own
  EXPECT_FALSE(has(forced.err, "\r")) << forced.err;
  EXPECT_TRUE(has(forced.err, "/5  ")) << forced.err;
  const RunResult quiet = batch({"--quiet"});
  EXPECT_FALSE(has(quiet.err, "\r")) << quiet.err;
}

// A folder with no images in it (or a wrong one) is said, not passed
// over as a run that did its work; a shard that draws none is not.
TEST_F(CliBatch, NoImagesFoundIsAWarning) {
  fs::create_directory(tmp_ / "empty");
  RunResult r = run_binary({"empty/", "--invert", "--device", "cpu", "none/"}, {tmp_.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(has(r.err, "gpuimg: warning: no image files found in the inputs given (-q: no warnings)\n")) << r.err;
  r = run_binary({"empty/", "--invert", "--device", "cpu", "-q", "none/"}, {tmp_.path()});
  EXPECT_FALSE(has(r.err, "warning")) << r.err;
  write_image((tmp_ / "empty" / "one.png").string(), random_image(2, 2, 1, Depth::U8, 1));
  r = run_binary({"empty/", "--invert", "--device", "cpu", "--shard", "2/2", "none/"}, {tmp_.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(has(r.err, "warning")) << r.err;
}

TEST_F(CliBatch, FailFastStopsAtTheFirstFailure) {
  // The corrupt file sorts before sub/deep: with one job nothing after it runs.
  const RunResult r =
      run_binary(args({"in/sub/corrupt.png", "in/sub/deep/c16.png"}, args(kOps, {"out/", "--jobs", "1", "--fail-fast"})),
                 {tmp_.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(has(r.err, summary(0, 1, 0))) << r.err;
  EXPECT_TRUE(has(r.err, "gpuimg: --fail-fast: stopped at the first failure; 1 file not processed\n")) << r.err;
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
    testing::Values(BadBatch{"output_folder_is_the_input", {"in/", "--invert", "in/", "--device", "cpu"},
                             "in/: is also the output folder"},
                    BadBatch{"named_files_into_their_own_folder",
                             {"in/ga.png", "in/a.png", "--invert", "in/", "--device", "cpu"},
                             "in/ga.png: its output would be the file itself"},
                    BadBatch{"named_files_into_their_own_folder_by_prefix",
                             {"in/sub/b.jpg", "in/a.png", "--invert", "png:in/", "--device", "cpu"},
                             "in/a.png: its output would be the file itself"},
                    BadBatch{"shard_zero", {"in/", "out/", "--shard", "0/3"}, "--shard"},
                    BadBatch{"shard_over", {"in/", "out/", "--shard", "4/3"}, "--shard"},
                    BadBatch{"shard_no_count", {"in/", "out/", "--shard", "3"}, "--shard"},
                    BadBatch{"jobs_zero", {"in/", "out/", "--jobs", "0"}, "--jobs"},
                    BadBatch{"format_unknown", {"in/", "out/", "--format", "xyz"}, "--format"},
                    BadBatch{"several_inputs_into_a_file", {"in/a.png", "in/ga.png", "out"}, "output folder"},
                    BadBatch{"batch_option_on_one_image", {"in/a.png", "out.png", "--jobs", "2"}, "--jobs"},
                    BadBatch{"devices_on_one_image", {"in/a.png", "out.png", "--devices", "0"}, "--devices"},
                    BadBatch{"devices_not_numbers", {"in/", "out/", "--devices", "first"}, "--devices"},
                    BadBatch{"devices_twice", {"in/", "out/", "--devices", "0,0"}, "listed twice"},
                    BadBatch{"devices_with_cpu", {"in/", "out/", "--devices", "all", "--device", "cpu"}, "--device cpu"}),
    [](const testing::TestParamInfo<BadBatch>& info) { return std::string(info.param.name); });

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
  // A folder INPUT alone does not choose it: refused, naming the '/' that
  // would, also where the folder is named like an image.
  for (const char* folder : {"dir", "dir.png"}) {
    const fs::path here = fs::current_path();
    fs::current_path(tmp.path());
    const char* argv[] = {"gpuimg", folder, "b.png"};
    testing::internal::CaptureStderr();
    const ParseResult r = parse_command_line(3, argv);
    const std::string err = testing::internal::GetCapturedStderr();
    fs::current_path(here);
    EXPECT_FALSE(r.run || r.batch) << err;
    EXPECT_EQ(r.exit_code, static_cast<int>(ExitCode::usage)) << err;
    EXPECT_NE(err.find(std::string(folder) + ": is a folder; to process the images in it, end OUTPUT with '/' (b.png/)"),
              std::string::npos)
        << err;
  }
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

// An output keeps its input's extension as typed, case and all; one that
// gpuimg cannot write becomes .png, and --format names the extension.
TEST(BatchPlan, OutputsKeepTheExtensionAsTyped) {
  EXPECT_EQ(named_file_output("in/IMG_1.JPG", "out", ""), "out/IMG_1.JPG");
  EXPECT_EQ(named_file_output("in/b.Png", "out", ""), "out/b.Png");
  EXPECT_EQ(named_file_output("in/c.jpeg", "out", ""), "out/c.jpeg");
  EXPECT_EQ(named_file_output("in/d.PSD", "out", ""), "out/d.png");
  EXPECT_EQ(named_file_output("in/e.GIF", "out", ""), "out/e.png");
  EXPECT_EQ(named_file_output("in/f.JPG", "out", "webp"), "out/f.webp");
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
      plan_batch({{(tmp / "in" / "a.png").string(), (tmp / "in" / "sub" / "b.jpg").string()}, {}, true, ""},
                 (tmp / "out").string(), "png");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].problem, "");
  EXPECT_EQ(items[1].problem, "");
  fs::create_directory(tmp / "other");
  fs::copy_file(tmp / "in" / "a.png", tmp / "other" / "a.png");
  const std::vector<BatchItem> clash = plan_batch(
      {{(tmp / "in" / "a.png").string(), (tmp / "other" / "a.png").string()}, {}, true, ""}, (tmp / "out").string(), "");
  ASSERT_EQ(clash.size(), 2u);
  EXPECT_EQ(clash[0].problem, "");  // in/ sorts first
  EXPECT_EQ(clash[1].problem, (tmp / "other" / "a.png").string() + ": its output " + (tmp / "out" / "a.png").string() +
                                  " is also " + (tmp / "in" / "a.png").string() + "'s");
  // Where one of the two is not there, that one is missing, whichever sorts first.
  for (const char* gone : {"gone", "zz"}) {
    const std::string missing = (tmp / gone / "a.png").string();
    const std::vector<BatchItem> one = plan_batch({{(tmp / "in" / "a.png").string(), missing}, {}, true, ""},
                                                  (tmp / "out").string(), "");
    ASSERT_EQ(one.size(), 2u);
    for (const BatchItem& item : one)
      EXPECT_EQ(item.problem, item.input == missing ? missing + ": no such file" : "") << item.input;
  }
  // One file spelt two ways, or named beside its folder: planned once, as a
  // path given twice is.
  const std::string a = (tmp / "in" / "a.png").string(), dotted = (tmp / "in" / "." / "a.png").string();
  const std::vector<BatchItem> once = plan_batch({{a, dotted, a}, {}, false, ""}, (tmp / "out").string(), "");
  ASSERT_EQ(once.size(), 1u);
  EXPECT_EQ(once[0].problem, "");
  EXPECT_EQ(once[0].output, (tmp / "out" / "a.png").string());
  const std::vector<BatchItem> folder = plan_batch({{(tmp / "in").string(), dotted}, {}, false, ""}, (tmp / "out").string(), "");
  ASSERT_EQ(folder.size(), 2u);  // a.png and ga.png
  for (const BatchItem& item : folder) EXPECT_EQ(item.problem, "") << item.input;
}

}  // namespace
}  // namespace gpuimg::test
