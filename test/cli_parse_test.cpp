// Parsing the command line into a pipeline: order, repeats, every kind of
// bad value, and the exit status and message of each usage error.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "error.hpp"
#include "thresholds.hpp"

namespace gpuimg::test {
namespace {

struct Parsed {
  ParseResult result;
  std::string err;
};

Parsed parse(const std::vector<std::string>& args) {
  std::vector<const char*> argv = {"gpuimg"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  Parsed p{parse_command_line(static_cast<int>(argv.size()), argv.data()), ""};
  p.err = testing::internal::GetCapturedStderr();
  testing::internal::GetCapturedStdout();
  return p;
}

std::vector<std::string> plan(const Parsed& p) {
  std::vector<std::string> out;
  for (const OpRecord& r : p.result.command.pipeline) out.push_back(describe(r));
  return out;
}

TEST(CliParse, OperationsKeepCommandLineOrderAndRepeat) {
  const Parsed p = parse({"in.png", "--blur", "3", "--invert", "--sharpen", "0.5", "--blur=2", "--invert", "out.png"});
  ASSERT_TRUE(p.result.run) << p.err;
  EXPECT_EQ(plan(p), (std::vector<std::string>{"blur R=3", "invert", "sharpen F=0.5", "blur R=2", "invert"}));
  EXPECT_EQ(p.result.command.input, "in.png");
  EXPECT_EQ(p.result.command.output, "out.png");
  EXPECT_EQ(p.result.command.device, DeviceChoice::automatic);
}

TEST(CliParse, OptionsMayComeBeforeTheInput) {
  const Parsed p = parse({"--sharpen", "0.8", "photo.jpg", "--blur", "1", "--sharpen", "0.5", "result.tif"});
  ASSERT_TRUE(p.result.run) << p.err;
  EXPECT_EQ(plan(p), (std::vector<std::string>{"sharpen F=0.8", "blur R=1", "sharpen F=0.5"}));
}

TEST(CliParse, NoOperationsIsACopy) {
  const Parsed p = parse({"a.png", "b.png"});
  ASSERT_TRUE(p.result.run);
  EXPECT_TRUE(p.result.command.pipeline.empty());
}

TEST(CliParse, DeviceAndLimits) {
  const Parsed p = parse({"a.png", "b.jpg", "--device", "cpu", "--max-pixels", "1000", "--quality", "80", "-v",
                          "--png-level", "9"});
  ASSERT_TRUE(p.result.run) << p.err;
  EXPECT_EQ(p.result.command.device, DeviceChoice::cpu);
  EXPECT_EQ(p.result.command.read.max_pixels, 1000u);
  EXPECT_EQ(p.result.command.write.jpeg_quality, 80);
  EXPECT_EQ(p.result.command.write.png_level, 9);
  EXPECT_EQ(parse({"a.png", "b.png"}).result.command.write.png_level, WriteOptions::kPngRunLength);
  EXPECT_TRUE(p.result.command.verbose);
  EXPECT_EQ(parse({"a.png", "b.png", "--device", "cuda"}).result.command.device, DeviceChoice::cuda);
  EXPECT_EQ(parse({"a.png", "b.png", "--device", "gpu"}).result.command.device, DeviceChoice::cuda);
  // Any case, as format and filter names are.
  EXPECT_EQ(parse({"a.png", "b.png", "--device", "CPU"}).result.command.device, DeviceChoice::cpu);
  EXPECT_EQ(parse({"a.png", "b.png", "--device", "Cuda"}).result.command.device, DeviceChoice::cuda);
}

struct BadCase {
  std::vector<const char*> args;
  const char* message;  // must appear in the one line on stderr
};

// The arguments, so that gtest lists a case by what it runs, not by its bytes.
void PrintTo(const BadCase& c, std::ostream* os) {
  for (const char* a : c.args) *os << "'" << a << "' ";
}

class CliParseRejects : public testing::TestWithParam<BadCase> {};

TEST_P(CliParseRejects, WithUsageStatusAndOneLine) {
  std::vector<const char*> argv = {"gpuimg"};
  argv.insert(argv.end(), GetParam().args.begin(), GetParam().args.end());
  testing::internal::CaptureStderr();
  const ParseResult r = parse_command_line(static_cast<int>(argv.size()), argv.data());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(r.run);
  EXPECT_EQ(r.exit_code, static_cast<int>(ExitCode::usage));
  EXPECT_NE(err.find(GetParam().message), std::string::npos) << "stderr: " << err;
  EXPECT_EQ(err.rfind("gpuimg: ", 0), 0u) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "one line: " << err;
}

const char* kBlurRange = "--blur: R must be an integer from 1 to 4096, got ";
const char* kSharpenRange = "--sharpen: F must be a decimal number from 0 to 1000, got ";

INSTANTIATE_TEST_SUITE_P(
    BadValues, CliParseRejects,
    testing::Values(BadCase{{"a.png", "--blur", "0", "b.png"}, kBlurRange}, BadCase{{"a.png", "--blur", "-3", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--blur", "4097", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--blur", "abc", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--blur", "2.5", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--blur", "3x", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--blur", "", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--blur", "99999999999999999999", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--sharpen", "nan", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "inf", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "-inf", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "-0.1", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "1000.5", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "1e400", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "0.5.1", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", " 1", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "1 ", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "0x10", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "0X1P3", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "infinity", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "1e", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "+-1", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--sharpen", "0,5", "b.png"}, kSharpenRange},
                    BadCase{{"a.png", "--blur", "1e1", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--blur", "0x10", "b.png"}, kBlurRange},
                    BadCase{{"a.png", "--device", "opencl", "b.png"}, "--device: must be auto, cuda (or gpu) or cpu"},
                    BadCase{{"a.png", "--max-pixels", "0", "b.png"}, "--max-pixels: must be a positive integer"},
                    BadCase{{"a.png", "--max-pixels", "-5", "b.png"}, "--max-pixels: must be a positive integer"},
                    BadCase{{"a.png", "--quality", "101", "b.png"}, "--quality: must be an integer from 1 to 100"},
                    BadCase{{"a.png", "--png-level", "10", "b.png"}, "--png-level: must be an integer from 0 to 9"},
                    BadCase{{"a.png", "--png-level", "-1", "b.png"}, "--png-level: must be an integer from 0 to 9"},
                    BadCase{{"a.png", "--depth", "12", "b.png"}, "--depth: must be 8 or 16 (bits a sample), got '12'"},
                    BadCase{{"a.png", "--depth", "08", "b.png"}, "--depth: must be 8 or 16 (bits a sample), got '08'"}));

INSTANTIATE_TEST_SUITE_P(
    BadShape, CliParseRejects,
    testing::Values(BadCase{{}, "missing INPUT and OUTPUT"}, BadCase{{"a.png"}, "missing OUTPUT"},
                    BadCase{{"a.png", "--invert"}, "missing OUTPUT"},
                    BadCase{{"a.png", "--bogus", "b.png"}, "unknown option '--bogus'"},
                    BadCase{{"a.png", "b.png", "c.png"}, "unexpected argument 'c.png'"},
                    BadCase{{"a.png", "b.png", "outy"}, "an output folder (an existing directory or a path ending in "
                                                        "'/': outy/)"},
                    // An expression's quotes lost to the shell: the word after its value is named.
                    BadCase{{"a.png", "--map", "v", "*0.5", "b.png"},
                            "unexpected argument '*0.5' after --map v: a value with spaces needs quotes (--map 'v "
                            "*0.5')"},
                    BadCase{{"a.png", "b.png", "--blur"}, "--blur"},
                    BadCase{{"a.png", "b.png", "--resize"}, "--resize: missing its value, SIZE[:FILTER]"},
                    BadCase{{"a.png", "b.png", "--depth"}, "--depth: missing its value, 8|16"},
                    BadCase{{"a.png", "--invert=yes", "b.png"}, "invert"},
                    BadCase{{"", "b.png"}, "empty path given as INPUT"},
                    BadCase{{"a.png", "--invert", ""}, "empty path given as OUTPUT"},
                    BadCase{{"a.png", "", "out/"}, "empty path given as INPUT"},
                    BadCase{{"a.png", "b.png", ""}, "empty path given as OUTPUT"},
                    BadCase{{"--files-from", "list.txt", ""}, "empty path given as OUTPUT"}));

// -v and -q are flags of one level: what follows one in its word is no
// level and no file (CLI11 would hand -v3's "3" back as a word "-3").
INSTANTIATE_TEST_SUITE_P(
    FlagsTakeNoValue, CliParseRejects,
    testing::Values(BadCase{{"a.png", "-v3", "b.png"},
                            "gpuimg: -v3: -v takes no value (-v has one level; -vv is the same as -v) (see gpuimg --help)"},
                    BadCase{{"a.png", "b.png", "-v3"}, "-v3: -v takes no value"},
                    BadCase{{"-v3", "a.png", "b.png"}, "-v3: -v takes no value"},
                    BadCase{{"a.png", "-vv3", "b.png"}, "-vv3: -v takes no value"},
                    BadCase{{"a.png", "-qv3", "b.png"}, "-qv3: -v takes no value"},
                    BadCase{{"a.png", "-v=3", "b.png"}, "-v=3: -v takes no value"},
                    BadCase{{"a.png", "-q3", "b.png"}, "gpuimg: -q3: -q takes no value (see gpuimg --help)"},
                    BadCase{{"a.png", "--verbose=3", "b.png"}, "gpuimg: --verbose takes no value"},
                    BadCase{{"a.png", "--quiet=0", "b.png"}, "gpuimg: --quiet takes no value"},
                    BadCase{{"in/", "-v2", "out/"}, "-v2: -v takes no value"},
                    BadCase{{"compare", "a.png", "b.png", "-v3"}, "-v3: -v takes no value"},
                    BadCase{{"compare", "a.png", "-v3", "b.png"}, "-v3: -v takes no value"},
                    BadCase{{"compare", "a.png", "b.png", "--verbose=2"}, "--verbose takes no value"},
                    BadCase{{"golden", "check", "m.txt", "-v3"}, "-v3: -v takes no value"},
                    BadCase{{"golden", "update", "m.txt", "-q1"}, "-q1: -q takes no value"}));

TEST(CliParse, VerboseTwiceIsVerbose) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"a.png", "-vv", "b.png"}, {"a.png", "-v", "-v", "b.png"}, {"-qv", "a.png", "b.png"}, {"a.png", "b.png", "--verbose=true"}}) {
    SCOPED_TRACE(testing::PrintToString(args));
    const Parsed p = parse(args);
    ASSERT_TRUE(p.result.run) << p.err;
    EXPECT_TRUE(p.result.command.verbose);
    EXPECT_EQ(p.result.command.input, "a.png");
    EXPECT_EQ(p.result.command.output, "b.png");
  }
  EXPECT_TRUE(parse({"a.png", "-qv", "b.png"}).result.command.quiet);
  const Parsed golden = parse({"golden", "check", "m.txt", "-vv"});
  ASSERT_TRUE(golden.result.golden) << golden.err;
  EXPECT_TRUE(golden.result.golden->verbose);
}

// Every option that takes a number, and the words of its line up to that
// number; the number's text is `prefix` + the value under test + `suffix`.
struct NumberOption {
  std::vector<std::string> before;
  std::string prefix, suffix;
  std::string named;  // what the message calls the option
};

const std::vector<NumberOption> kNumberOptions = {
    {{"a.png", "b.png", "--blur"}, "", "", "--blur: R"},
    {{"a.png", "b.png", "--sharpen"}, "", "", "--sharpen: F"},
    {{"a.png", "b.png", "--median"}, "", "", "--median: R"},
    {{"a.png", "b.png", "--quality"}, "", "", "--quality:"},
    {{"a.png", "b.png", "--png-level"}, "", "", "--png-level:"},
    {{"a.png", "b.png", "--max-pixels"}, "", "", "--max-pixels:"},
    {{"in/", "out/", "--jobs"}, "", "", "--jobs:"},
    {{"in/", "out/", "--shard"}, "1/", "", "--shard:"},
    {{"in/", "out/", "--shard"}, "", "/2", "--shard:"},
    {{"in/", "out/", "--devices"}, "0,", "", "--devices:"},
    {{"compare", "a.png", "b.png", "--max-pixels"}, "", "", "--max-pixels:"},
    {{"compare", "a.png", "b.png", "--max-diff"}, "", "", "--max-diff:"},
    {{"compare", "a.png", "b.png", "--max-differing"}, "", "", "--max-differing:"},
    {{"compare", "a.png", "b.png", "--max-differing-share"}, "", "", "--max-differing-share:"},
    {{"compare", "a.png", "b.png", "--max-mae"}, "", "", "--max-mae:"},
    {{"compare", "a.png", "b.png", "--max-rmse"}, "", "", "--max-rmse:"},
    {{"compare", "a.png", "b.png", "--min-psnr"}, "", "", "--min-psnr (or --psnr):"},
    {{"compare", "a.png", "b.png", "--psnr"}, "", "", "--min-psnr (or --psnr):"},
    {{"compare", "a.png", "b.png", "--min-ssim"}, "", "", "--min-ssim (or --ssim):"},
    {{"compare", "a.png", "b.png", "--ssim"}, "", "", "--min-ssim (or --ssim):"},
};

TEST(CliParse, EveryNumericOptionRefusesAllButPlainDecimals) {
  for (const NumberOption& o : kNumberOptions)
    for (const char* bad : {"0x1", "0X1", "0x1p0", "inf", "nan", "infinity", " 1", "1 ", "1x", "x1", "+-1", "1e",
                            ""}) {
      std::vector<std::string> args = o.before;
      const std::string value = o.prefix + bad + o.suffix;
      args.push_back(value);
      SCOPED_TRACE(testing::PrintToString(args));
      const Parsed p = parse(args);
      EXPECT_EQ(p.result.exit_code, static_cast<int>(ExitCode::usage)) << p.err;
      EXPECT_EQ(p.err.rfind("gpuimg: " + o.named + " must be ", 0), 0u) << p.err;
      EXPECT_NE(p.err.find("got '" + value + "'"), std::string::npos) << p.err;
      EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << p.err;
    }
}

// A setting given twice takes the last, as ImageMagick's do (a script may
// put its defaults first); an operation given twice is two stages, and
// compare's limits are settings too.
TEST(CliParse, ASettingGivenTwiceTakesTheLast) {
  Parsed p = parse({"a.png", "--quality", "50", "--depth", "16", "--blur", "1", "--quality", "80", "--depth", "8",
                    "--device", "cuda", "--blur", "2", "--device", "cpu", "--png-level", "1", "--png-level", "9",
                    "b.jpg"});
  ASSERT_EQ(p.result.exit_code, 0) << p.err;
  EXPECT_EQ(p.result.command.write.jpeg_quality, 80);
  EXPECT_EQ(p.result.command.write.depth, Depth::U8);
  EXPECT_EQ(p.result.command.device, DeviceChoice::cpu);
  EXPECT_EQ(p.result.command.write.png_level, 9);
  EXPECT_EQ(p.result.command.pipeline.size(), 2u);
  p = parse({"compare", "a.png", "b.png", "--max-diff", "5", "--max-diff", "0", "--max-mae", "2"});
  ASSERT_EQ(p.result.exit_code, 0) << p.err;
  ASSERT_TRUE(p.result.compare);
  ASSERT_EQ(p.result.compare->limits.size(), 2u);
  for (const Threshold& t : p.result.compare->limits)
    EXPECT_EQ(t.limit, std::string(t.spec->name) == "max-diff" ? 0 : 2) << t.spec->name;
}

// 1e-320 is a subnormal and 1e-400 rounds to zero: both lie inside the
// ranges, so both are taken, as the nearest double.
TEST(CliParse, NumbersThatUnderflowAreTakenWhereInRange) {
  Parsed p = parse({"a.png", "--sharpen", "1e-320", "--sharpen", "1e-400", "--sharpen", "2.5E-1", "--sharpen", ".5",
                    "b.png"});
  ASSERT_TRUE(p.result.run) << p.err;
  EXPECT_EQ(plan(p), (std::vector<std::string>{"sharpen F=1e-320", "sharpen F=0", "sharpen F=0.25", "sharpen F=0.5"}));

  p = parse({"compare", "a.png", "b.png", "--psnr", "1e-320", "--max-mae", "1e-400", "--max-diff", "1E1"});
  ASSERT_TRUE(p.result.compare.has_value()) << p.err;
  ASSERT_EQ(p.result.compare->limits.size(), 3u);
  EXPECT_EQ(describe(p.result.compare->limits), "max-diff=10 max-mae=0 min-psnr=1e-320");
}

// A sign is part of a plain decimal, integers' included; the range decides.
TEST(CliParse, IntegersTakeASign) {
  const Parsed p = parse({"a.png", "--blur", "+3", "--quality", "+80", "--png-level", "-0", "b.jpg"});
  ASSERT_TRUE(p.result.run) << p.err;
  EXPECT_EQ(plan(p), std::vector<std::string>{"blur R=3"});
  EXPECT_EQ(p.result.command.write.jpeg_quality, 80);
  EXPECT_EQ(p.result.command.write.png_level, 0);
  const Parsed batch = parse({"in/", "out/", "--jobs", "+2", "--shard", "+1/+2"});
  ASSERT_TRUE(batch.result.batch.has_value()) << batch.err;
  EXPECT_EQ(batch.result.batch->jobs, 2);
  EXPECT_EQ(batch.result.batch->shard.count, 2);
}

TEST(CliParse, HelpListsEveryOpWithRangeAndExample) {
  testing::internal::CaptureStdout();
  const char* argv[] = {"gpuimg", "--help"};
  const ParseResult r = parse_command_line(2, argv);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_FALSE(r.run);
  EXPECT_EQ(r.exit_code, 0);
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    EXPECT_NE(out.find(std::string("--") + Op::name), std::string::npos) << Op::name;
    EXPECT_NE(out.find(std::string("Example: ") + Op::example), std::string::npos) << Op::name;
  });
  EXPECT_NE(out.find("an integer from 1 to 4096"), std::string::npos) << out;
  EXPECT_NE(out.find("one of 0, 90, 180, 270, 360, -90, -180, -270, -360"), std::string::npos) << out;
  EXPECT_NE(out.find("Exit status"), std::string::npos);
}

TEST(CliParse, ListOpsAndVersion) {
  const Parsed list = parse({"--list-ops"});
  EXPECT_FALSE(list.result.run);
  EXPECT_EQ(list.result.exit_code, 0);
  EXPECT_NE(op_table().find("--blur R (1..4096)"), std::string::npos) << op_table();
  EXPECT_NE(op_table().find("--invert"), std::string::npos);

  testing::internal::CaptureStdout();
  const char* argv[] = {"gpuimg", "--version"};
  const ParseResult r = parse_command_line(2, argv);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(out.rfind(std::string("gpuimg ") + GPUIMG_VERSION, 0), 0u) << out;
}

}  // namespace
}  // namespace gpuimg::test
