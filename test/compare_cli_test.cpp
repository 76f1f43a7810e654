// `gpuimg compare` and `gpuimg golden` as a user runs them: exit codes
// (0 same, 1 different, 2 error), limits, --json on stdout, --diff's
// picture, and manifests with passing, failing and broken cases.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "batch_tree.hpp"
#include "codec.hpp"
#include "json_reader.hpp"
#include "run_binary.hpp"
#include "printable.hpp"
#include "random_image.hpp"

namespace gpuimg::test {
namespace {

std::string data(const char* name) { return (data_dir() / name).string(); }

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// scene.png blurred once: many small differences from scene.png.
std::string blurred_scene(const TempDir& tmp) {
  const std::string out = (tmp / "blurred.png").string();
  EXPECT_EQ(run_binary({data("scene.png"), "--blur", "1", out}).status, 0);
  return out;
}

TEST(CompareCli, ExitZeroForIdenticalOneForDifferentTwoForErrors) {
  TempDir tmp;
  const std::string blurred = blurred_scene(tmp);
  RunResult r = run_binary({"compare", data("scene.png"), data("scene.png")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("identical\n", 0), 0u) << r.out;
  r = run_binary({"compare", data("scene.png"), blurred, "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out.rfind("different: max-diff 84 > 0\n", 0), 0u) << r.out;
  EXPECT_EQ(r.err, "");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"compare", data("scene.png"), (tmp / "missing.png").string()},
           {"compare", tmp.path().string(), data("scene.png")},
           {"compare", data("scene.png")},
           {"compare", data("scene.png"), data("scene.png"), "extra"},
           {"compare", data("scene.png"), data("scene.png"), "--max-diff", "x"},
           {"compare", data("scene.png"), data("scene.png"), "--max-diff", "0x10"},
           {"compare", data("scene.png"), data("scene.png"), "--psnr", "inf"},
           {"compare", data("scene.png"), data("scene.png"), "--max-pixels", ""},
           {"compare", data("scene.png"), data("scene.png"), "--device", "opencl"},
           {"compare", data("scene.png"), data("scene.png"), "--blur", "3"}}) {
    SCOPED_TRACE(testing::PrintToString(args));
    r = run_binary(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("gpuimg: ", 0), 0u) << r.err;
  }
  // A bad value of a limit with two names names both, one of them typed.
  for (const char* name : {"--psnr", "--min-psnr"}) {
    r = run_binary({"compare", data("scene.png"), data("scene.png"), name, "abc"});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("gpuimg: --min-psnr (or --psnr): must be a finite decimal number, 0 or more, got 'abc'", 0), 0u)
        << r.err;
  }
  r = run_binary({"compare", data("scene.png"), data("scene.png"), "--max-diff", "abc"});
  EXPECT_EQ(r.err.rfind("gpuimg: --max-diff: must be", 0), 0u) << r.err;
}

TEST(CompareCli, LimitsDecide) {
  TempDir tmp;
  const std::string blurred = blurred_scene(tmp);
  const auto status = [&](std::vector<std::string> limits) {
    std::vector<std::string> args = {"compare", data("scene.png"), blurred, "--device", "cpu"};
    args.insert(args.end(), limits.begin(), limits.end());
    return run_binary(args).status;
  };
  EXPECT_EQ(status({"--max-diff", "84"}), 0);
  EXPECT_EQ(status({"--max-diff", "83"}), 1);
  EXPECT_EQ(status({"--psnr", "30"}), 0);  // 30.52 dB
  EXPECT_EQ(status({"--min-psnr", "31"}), 1);
  EXPECT_EQ(status({"--max-diff", "84", "--ssim", "0.7"}), 1);  // 0.695
  EXPECT_EQ(status({"--max-differing-share", "0.98", "--max-mae", "5.3", "--max-rmse", "7.6"}), 0);
}

// Without a limit on SSIM the table leaves it out ("-"); a limit or --json
// computes it.
TEST(CompareCli, SsimOnlyWhenALimitOrTheJsonAsks) {
  TempDir tmp;
  const std::string blurred = blurred_scene(tmp);
  const auto all_row = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"compare", data("scene.png"), blurred, "--device", "cpu"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_binary(args);
    const std::size_t at = r.out.find("\nall ");
    return at == std::string::npos ? r.out : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
  };
  const std::string lazy = all_row({}), asked = all_row({"--ssim", "0.5"});
  EXPECT_EQ(lazy.substr(lazy.size() - 2), " -") << lazy;
  EXPECT_EQ(asked.substr(asked.size() - 11), " 0.69535805") << asked;
  EXPECT_EQ(run_binary({"compare", data("scene.png"), blurred, "--json"}).out.find("\"ssim\": null"),
            std::string::npos);
}

TEST(CompareCli, MismatchesAreDifferencesNotErrors) {
  for (const char* other : {"scene16.png", "gray.png", "rgba.png", "tiny.png"}) {
    SCOPED_TRACE(other);
    const RunResult r = run_binary({"compare", data("scene.png"), data(other), "--max-diff", "65535"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.out.rfind("different: ", 0), 0u) << r.out;
  }
  const RunResult r = run_binary({"compare", data("scene.png"), data("scene16.png")});
  EXPECT_NE(r.out.find("depth 8-bit vs 16-bit"), std::string::npos) << r.out;
}

TEST(CompareCli, JsonOnStdout) {
  TempDir tmp;
  const RunResult r =
      run_binary({"compare", data("scene.png"), blurred_scene(tmp), "--json", "--psnr", "30", "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\n  \"schema\": \"gpuimg-compare/1\",\n  \"result\": \"within\",\n  \"pass\": true,", 0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("\"thresholds\": {\"min-psnr\": 30}"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"overall\": {\"max_diff\": 84, \"differing_pixels\": 62095,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.back(), '\n');  EXPECT_NO_THROW(parse_json(r.out)) << r.out;
}

// Names with bytes that are not UTF-8, controls, quotes and backslashes:
// the JSON stays valid for a strict reader, and each path reads back
// exactly from its printable form (docs/compare.md).
TEST(CompareCli, JsonIsValidWhateverTheFileNames) {
  TempDir tmp;
  const std::vector<std::string> names = {"q\"uote\\back\x01ctl\xff\xfe.png", "\xc3\x28\x7f\tn\nr\r\x1b[2J\"\\x41.png",
                                          "\xed\xa0\x80\xc2\x85\xe2\x82.png"};
  for (const std::string& name : names) fs::copy_file(data_dir() / "scene.png", tmp / name);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string expected = names[i], actual = names[(i + 1) % names.size()];
    const RunResult r = run_binary({"compare", expected, actual, "--json", "--device", "cpu"}, {tmp.path()});
    EXPECT_EQ(r.status, 0) << r.err;
    try {
      const Json report = parse_json(r.out);
      EXPECT_EQ(bytes_of_printable(report["expected"]["path"].string), expected);
      EXPECT_EQ(bytes_of_printable(report["actual"]["path"].string), actual);
      EXPECT_EQ(report["result"].string, "identical");
    } catch (const std::runtime_error& e) {
      ADD_FAILURE() << e.what() << "\n" << r.out;
    }
  }
}

// The reader the test above trusts refuses what a strict parser must.
TEST(CompareCli, TheStrictJsonReaderRefusesInvalidText) {
  for (const char* bad : {"\"\xff\"", "\"\x01\"", "\"\\udc00\"", "\"\\ud800x\"", "\"\\x41\"", "[1,]", "{\"a\" 1}",
                          "01", "1.", "{} x", "nul"})
    EXPECT_THROW(parse_json(bad), std::runtime_error) << bad;
  const Json good = parse_json("{\"a\": [\"\\ud83d\\ude00\\n\", -1.5e2, true, null]}");
  EXPECT_EQ(good["a"].items[0].string, "\xf0\x9f\x98\x80\n");
  EXPECT_EQ(good["a"].items[1].number, -150);
}

TEST(CompareCli, DiffPicture) {
  TempDir tmp;
  const std::string blurred = blurred_scene(tmp);
  const std::string diff = (tmp / "diff.png").string();
  RunResult r = run_binary({"compare", data("scene16.png"), data("scene16.png"), "--diff", diff});
  EXPECT_EQ(r.status, 0) << r.err;
  const Image same = read_image(diff);
  EXPECT_EQ(shape(same), "97x61 RGB 8-bit");

  r = run_binary({"compare", data("scene.png"), blurred, "--diff", diff, "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.err;
  const Image d = read_image(diff);
  EXPECT_EQ(shape(d), "320x200 RGB 8-bit");
  int coloured = 0;
  for (std::size_t i = 0; i < d.pixel_count(); ++i) coloured += d.data[i * 3] == 255 && d.data[i * 3 + 2] == 0;
  EXPECT_EQ(coloured, 62095);  // every differing pixel, and nothing else

  r = run_binary({"compare", data("scene.png"), data("gray.png"), "--diff", (tmp / "none.png").string()});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("not written"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "none.png"));
  // An earlier run's picture there is not left to pass for this one's.
  r = run_binary({"compare", data("scene.png"), data("gray.png"), "--diff", diff});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + diff + ": not written: the images differ in size 320x200 vs 64x48, channels RGB vs "
                   "gray (the picture an earlier run left there is removed)\n");
  EXPECT_FALSE(fs::exists(diff));
  // To stdout nothing is removed, a file named - here least of all.
  write_bytes(tmp / "-", "not a picture");
  r = run_binary({"compare", data("scene.png"), data("gray.png"), "--diff", "png:-", "-q"}, {tmp.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.err.find("removed"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "-"));
  r = run_binary({"compare", data("scene.png"), blurred, "--diff", blurred});
  EXPECT_EQ(r.status, 2);
}

// --diff takes FMT:FILE as the processing command's OUTPUT does: a PNG in
// a file named otherwise, or on stdout, which holds the report unless -q.
TEST(CompareCli, DiffPictureInAFormatByPrefix) {
  TempDir tmp;
  const std::string blurred = blurred_scene(tmp);
  const fs::path dat = tmp / "diff.dat";
  RunResult r = run_binary({"compare", data("scene.png"), blurred, "--diff", "png:" + dat.string()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(shape(read_image(dat.string())), "320x200 RGB 8-bit");
  EXPECT_EQ(bytes_of(dat).substr(0, 4), "\x89PNG");

  r = run_binary({"compare", data("scene.png"), blurred, "--diff", "png:-", "-q"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out.substr(0, 4), "\x89PNG");
  EXPECT_EQ(r.err, "");
  for (const auto& [diff, says] : {std::pair<std::string, std::string>{"png:-", "stdout holds compare's report: add -q"},
                                   {"-", "--diff -: stdout has no extension"},
                                   {"pgn:d.png", "'pgn' is no format gpuimg writes"}}) {
    r = run_binary({"compare", data("scene.png"), blurred, "--diff", diff});
    EXPECT_EQ(r.status, 2) << diff;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

// Standard input holds one image: two of the images as - is a usage error,
// not a truncated second read.
TEST(CompareCli, OneImageAtMostFromStdin) {
  RunOptions from_stdin;
  from_stdin.stdin_bytes = bytes_of(data("scene.png"));
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"compare", "-", "-"}, {"compare", "png:-", "-"}, {"compare", data("scene.png"), "-", "--mask", "-"}}) {
    SCOPED_TRACE(testing::PrintToString(args));
    const RunResult r = run_binary(args, from_stdin);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("stdin holds one image"), std::string::npos) << r.err;
  }
  const RunResult r = run_binary({"compare", data("scene.png"), "-"}, from_stdin);
  EXPECT_EQ(r.status, 0) << r.err;
}

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(GoldenCli, UpdateThenCheckThenAFailingCase) {
  TempDir tmp;
  fs::create_directory(tmp / "in");
  fs::copy_file(data_dir() / "scene.png", tmp / "in" / "scene.png");
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  const std::string manifest = (tmp / "golden.txt").string();
  write_text(manifest,
             "# two cases\n"
             "blurred | in/scene.png | --blur 1\n"
             "\n"
             "sharp   | gray.png  | --sharpen 0.5 --invert | max-diff=0\n");
  RunResult r = run_binary({"golden", "update", manifest, "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "blurred.png"));
  EXPECT_TRUE(fs::exists(tmp / "sharp.png"));
  EXPECT_NE(r.out.find("created"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n2 cases: 2 created, 0 updated, 0 unchanged, 0 errors\n"), std::string::npos) << r.out;
  r = run_binary({"golden", "update", manifest, "--device", "cpu", "-q"});
  EXPECT_EQ(r.out, "2 cases: 0 created, 0 updated, 2 unchanged, 0 errors\n");

  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("2 cases: 2 passed, 0 failed, 0 errors"), std::string::npos) << r.out;

  // The pipeline changes: the golden no longer matches; a limit lets one through.
  write_text(manifest,
             "blurred | in/scene.png | --blur 2\n"
             "blurred_ok | in/scene.png | --blur 1 | max-diff=0\n"
             "sharp   | gray.png  | --sharpen 0.5 | min-psnr=0\n");
  fs::copy_file(tmp / "blurred.png", tmp / "blurred_ok.png");
  // --diff-dir is created when missing, parents too.
  const fs::path diffs = tmp / "diffs" / "run1";
  r = run_binary({"golden", "check", manifest, "--device", "cpu", "--diff-dir", diffs.string()});
  EXPECT_EQ(r.status, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("blurred                              FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("blurred_ok                           pass"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sharp                                pass"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 cases: 2 passed, 1 failed, 0 errors"), std::string::npos) << r.out;
  EXPECT_EQ(shape(read_image((diffs / "blurred.diff.png").string())), "320x200 RGB 8-bit");
  EXPECT_FALSE(fs::exists(diffs / "blurred_ok.diff.png"));
  // Passing now, the case leaves no picture of an earlier failure behind.
  write_text(manifest, "blurred | in/scene.png | --blur 2 | min-psnr=0\n");
  r = run_binary({"golden", "check", manifest, "--device", "cpu", "--diff-dir", diffs.string()});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_FALSE(fs::exists(diffs / "blurred.diff.png"));

  // --prune removes the PNGs beside the manifest that no case names, as
  // golden, input or mask; folders below are left alone.
  const Image gray = read_image((tmp / "gray.png").string());
  write_image((tmp / "mask.png").string(), random_image(gray.width, gray.height, 1, Depth::U8, 4));
  write_text(manifest, "sharp | gray.png | --sharpen 0.5 --invert | mask=mask.png\n");
  r = run_binary({"golden", "update", manifest, "--device", "cpu", "--prune"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "blurred.png"));
  EXPECT_TRUE(fs::exists(tmp / "gray.png"));
  EXPECT_FALSE(fs::exists(tmp / "blurred_ok.png"));
  EXPECT_TRUE(fs::exists(tmp / "sharp.png"));
  EXPECT_TRUE(fs::exists(tmp / "mask.png"));
  EXPECT_TRUE(fs::exists(tmp / "in" / "scene.png"));
}

// Cases named after the manifest run alone, in the manifest's order; a
// name no case has is an error before any runs, and --prune, which needs
// every case, takes no names.
TEST(GoldenCli, NamedCasesRunAlone) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  const std::string manifest = (tmp / "golden.txt").string();
  write_text(manifest,
             "inverted | gray.png | --invert\n"
             "blurred  | gray.png | --blur 1\n"
             "sharp    | gray.png | --sharpen 0.5\n");
  RunResult r = run_binary({"golden", "update", manifest, "sharp", "inverted", "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "inverted.png"));
  EXPECT_TRUE(fs::exists(tmp / "sharp.png"));
  EXPECT_FALSE(fs::exists(tmp / "blurred.png"));
  EXPECT_LT(r.out.find("inverted.png"), r.out.find("sharp.png")) << r.out;  // the manifest's order
  r = run_binary({"golden", "check", manifest, "sharp", "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("1 case: 1 passed, 0 failed, 0 errors"), std::string::npos) << r.out;
  r = run_binary({"golden", "check", manifest, "blured", "--device", "cpu"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: no case named 'blured' in " + manifest + "; did you mean blurred?\n");
  r = run_binary({"golden", "update", manifest, "sharp", "--prune", "--device", "cpu"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--prune takes the whole manifest: give it no case names"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "inverted.png"));
}

// Bad lines run no case, but --junit still gets a file for the CI's
// report: one errored testcase holding them; never over the manifest.
TEST(GoldenCli, ABadManifestStillWritesItsJunitFile) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  const std::string manifest = (tmp / "golden.txt").string();
  write_text(manifest, "a | gray.png | --invret\nb | gray.png | --blur 1\n");
  RunResult r = run_binary({"golden", "check", manifest, "--junit", (tmp / "j.xml").string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.err;
  const std::string xml = read_bytes(tmp / "j.xml");
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\" errors=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"(manifest)\""), std::string::npos) << xml;
  EXPECT_NE(xml.find(":1: not an operation or its value: --invret; did you mean --invert?"), std::string::npos) << xml;
  const std::string before = read_bytes(manifest);
  r = run_binary({"golden", "check", manifest, "--junit", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(read_bytes(manifest), before);
}

TEST(GoldenCli, BadManifestsAndMissingFilesAreErrors) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  const std::string manifest = (tmp / "golden.txt").string();
  const std::pair<std::string, std::string> cases[] = {
      {"a | gray.png\n", "golden.txt:1: expected 'NAME | INPUT | ARGS... [| LIMIT=VALUE ...]'"},
      {"a b | gray.png |\n", "golden.txt:1: NAME and INPUT must be one word each"},
      {"a |  | --invert\n", "golden.txt:1: INPUT is empty"},
      {" | gray.png | --invert\n", "golden.txt:1: NAME is empty"},
      {"a | '' | --invert\n", "golden.txt:1: INPUT is empty"},
      {"a | gray.png | --blurr 3\n", "golden.txt:1: not an operation or its value: --blurr 3; did you mean --blur?"},
      {"a | gray.png | --map \"v * 2\"\n",
       "golden.txt:1: not an operation or its value: * 2\" (a manifest quotes with '...' alone: a \" is a character of "
       "its word)"},
      {"a | gray.png | --blur 0\n", "golden.txt:1: --blur: R must be an integer from 1 to 4096, got '0'"},
      {"a | gray.png | | psnr=3\n", "golden.txt:1: 'psnr=3' is not LIMIT=VALUE with a LIMIT of max-diff, "
                                     "max-differing, max-differing-share, max-mae, max-rmse, min-psnr, min-ssim, ignore, "
                                     "mask, alpha or threshold, or ignore-aa; did you mean min-psnr=3?"},
      {"a | gray.png | | ssim=0.9\n", "golden.txt:1: 'ssim=0.9' is not LIMIT=VALUE"},
      {"a | gray.png | | ssim=0.9\n", "did you mean min-ssim=0.9?"},
      {"a | gray.png | | max-dif=1\n",
       "golden.txt:1: 'max-dif=1' is not LIMIT=VALUE with a LIMIT of max-diff, max-differing, max-differing-share, "
       "max-mae, max-rmse, min-psnr, min-ssim, ignore, mask, alpha or threshold, or ignore-aa; did you mean max-diff=1?"},
      {"a | gray.png | | max-diff=1 # loose\n",
       "golden.txt:1: '#' is not LIMIT=VALUE with a LIMIT of max-diff, max-differing, max-differing-share, max-mae, "
       "max-rmse, min-psnr, min-ssim, ignore, mask, alpha or threshold, or ignore-aa (a comment takes a whole line)"},
      {"a | gray.png | | max-diff=0 max-diff=1\n", "golden.txt:1: 'max-diff' is given twice: a case takes each limit once"},
      {"a | gray.png | | alpha=ignore alpha=ignore\n", "golden.txt:1: 'alpha' is given twice"},
      {"a | gray.png | | max-diff = 1\n",
       "golden.txt:1: 'max-diff' is not LIMIT=VALUE with a LIMIT of max-diff, max-differing, max-differing-share, "
       "max-mae, max-rmse, min-psnr, min-ssim, ignore, mask, alpha or threshold, or ignore-aa (no spaces around '=')"},
      {"a | gray.png | | max-diff =1\n", "(no spaces around '=')"},
      {"a | gray.png | | max-diff=-1\n", "golden.txt:1: max-diff: must be a decimal number from 0 to 65535, got '-1'"},
      {"a | gray.png | | max-diff=0x10\n",
       "golden.txt:1: max-diff: must be a decimal number from 0 to 65535, got '0x10'"},
      {"a | gray.png | | min-psnr=inf\n", "golden.txt:1: min-psnr: must be a finite decimal number, 0 or more, got 'inf'"},
      {"a | gray.png | --sharpen 0x10\n",
       "golden.txt:1: --sharpen: F must be a decimal number from 0 to 1000, got '0x10'"},
      {"a | gray.png |\na | gray.png |\n", "golden.txt:2: name 'a' repeats"},
      {"# nothing\n", "golden.txt: no cases in the manifest"},
      {"a | missing.png |\n", "missing.png: no such file"},
      {"a | gray.png |\n", "a.png: no such file: no golden yet (gpuimg golden update " + manifest + " a makes it)"},
  };
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    write_text(manifest, text);
    const RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu"});
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find(message), std::string::npos) << r.out << r.err;
  }
  EXPECT_EQ(run_binary({"golden", "check", (tmp / "none.txt").string()}).status, 2);
  // --junit where it cannot be written: refused before any case runs.
  write_text(manifest, "a | gray.png |\n");
  const RunResult junit = run_binary({"golden", "check", manifest, "--device", "cpu", "--junit", (tmp / "no" / "j.xml").string()});
  EXPECT_EQ(junit.status, 2) << junit.err;
  EXPECT_EQ(junit.out, "");
  EXPECT_NE(junit.err.find("j.xml: directory '" + (tmp / "no").string() + "' does not exist"), std::string::npos) << junit.err;
  EXPECT_EQ(run_binary({"golden", "frobnicate", manifest}).status, 2);
}

// A case whose golden NAME.png is its input, by name or by a hard link:
// update refuses it and leaves the input as it was, check reports it broken
// rather than failed, and the other cases run.
TEST(GoldenCli, ACaseWhoseGoldenIsItsInputIsBroken) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  fs::create_directory(tmp / "in");
  fs::copy_file(data_dir() / "tiny.png", tmp / "in" / "tiny.png");
  fs::create_hard_link(tmp / "in" / "tiny.png", tmp / "linked.png");
  fs::copy_file(data_dir() / "scene.png", tmp / "scene.png");
  const std::string manifest = (tmp / "golden.txt").string();
  write_text(manifest,
             "gray   | gray.png    | --invert\n"
             "linked | in/tiny.png | --invert\n"
             "scene_inverted | scene.png | --invert\n");
  const std::string refused = ": is also this case's input; gpuimg never overwrites its input";

  RunResult r = run_binary({"golden", "update", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("gpuimg: gray: " + (tmp / "gray.png").string() + refused), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("gpuimg: linked: " + (tmp / "linked.png").string() + refused), std::string::npos) << r.err;
  EXPECT_TRUE(same_samples(read_image(data("gray.png")), read_image((tmp / "gray.png").string())));
  EXPECT_TRUE(same_samples(read_image(data("tiny.png")), read_image((tmp / "in" / "tiny.png").string())));
  EXPECT_TRUE(fs::exists(tmp / "scene_inverted.png"));

  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("3 cases: 1 passed, 0 failed, 2 errors"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find((tmp / "linked.png").string() + refused), std::string::npos) << r.out;
}

// update writing a case's golden over a file another case reads (its
// input or mask), or over the case's own mask, is refused before any
// golden is written: the file would be lost, and the reader would take
// the other case's output or not as the manifest's order fell.
TEST(GoldenCli, UpdateRefusesAGoldenOverAFileAnotherCaseReads) {
  TempDir tmp;
  for (const char* name : {"gray.png", "scene.png"}) fs::copy_file(data_dir() / name, tmp / name);
  fs::copy_file(data_dir() / "tiny.png", tmp / "mask.png");
  const std::string before = read_bytes(tmp / "gray.png"), mask = read_bytes(tmp / "mask.png");
  const auto refused = [&](const std::string& text, const std::vector<std::string>& names, const std::string& line) {
    SCOPED_TRACE(text);
    write_text((tmp / "cases.txt").string(), text);
    std::vector<std::string> words = {"golden", "update", (tmp / "cases.txt").string(), "--device", "cpu"};
    words.insert(words.end(), names.begin(), names.end());
    const RunResult r = run_binary(words);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "gpuimg: " + (tmp / "cases.txt").string() + ":" + line + "\n");
  };
  const std::string chained = "gray  | scene.png | --invert\nother | gray.png  | --flip\n";
  const std::string over = ", which update would replace: give one of the two another name";
  for (const std::vector<std::string>& names : {std::vector<std::string>{}, {"gray"}})
    refused(chained, names, "1: gray's golden " + (tmp / "gray.png").string() + " is also the input of other (line 2)" + over);
  refused("a    | scene.png | --invert | mask=mask.png\nmask | scene.png | --flip\n", {},
          "2: mask's golden " + (tmp / "mask.png").string() + " is also the mask of a (line 1)" + over);
  refused("mask | scene.png | --invert | mask=mask.png\n", {},
          "1: mask's golden " + (tmp / "mask.png").string() +
              " is also its own mask, which update would replace: give the mask another name");
  EXPECT_EQ(read_bytes(tmp / "gray.png"), before);
  EXPECT_EQ(read_bytes(tmp / "mask.png"), mask);
  EXPECT_FALSE(fs::exists(tmp / "other.png"));
  EXPECT_FALSE(fs::exists(tmp / "a.png"));
  // The same through a link: writing the golden would replace what it leads to.
  fs::create_symlink("gray.png", tmp / "link.png");
  refused("gray  | scene.png | --invert\nother | link.png  | --flip\n", {},
          "1: gray's golden " + (tmp / "gray.png").string() + " is also the input of other (line 2)" + over);
  EXPECT_EQ(read_bytes(tmp / "gray.png"), before);
  // The case that reads the file may be updated alone; check reads and writes no golden.
  write_text((tmp / "cases.txt").string(), chained);
  const RunResult other = run_binary({"golden", "update", (tmp / "cases.txt").string(), "other", "--device", "cpu"});
  EXPECT_EQ(other.status, 0) << other.err;
  EXPECT_EQ(read_bytes(tmp / "gray.png"), before);
  EXPECT_TRUE(fs::exists(tmp / "other.png"));
  const RunResult check = run_binary({"golden", "check", (tmp / "cases.txt").string(), "--device", "cpu"});
  EXPECT_EQ(check.err.find("update would replace"), std::string::npos) << check.err;
}

TEST(GoldenCli, TheProjectsOwnGoldensPassOnTheCpu) {
  const RunResult r = run_binary({"golden", "check", (golden_dir() / "cases.txt").string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(GoldenCli, TheProcessingCommandStillTakesAnInputNamedLikeASubcommandAsADotPath) {
  TempDir tmp;
  fs::copy_file(data_dir() / "tiny.png", tmp / "compare");
  const RunResult r = run_binary({"./compare", "--invert", "out.png"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
}

}  // namespace
}  // namespace gpuimg::test
