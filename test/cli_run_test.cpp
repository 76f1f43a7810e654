// The built binary end to end on the CPU: every golden case sample for
// sample, and every way a run can fail, each with its exit status, one line
// on stderr, and no file created, changed or removed.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "backend.hpp"
#include "random_image.hpp"
#include "registry.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

// ---- helpers ---------------------------------------------------------------

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  ASSERT_EQ(fs::file_size(path), bytes.size()) << path;
}

// What a failed run must leave as it was, for every entry under a
// directory: its type, and for a file its bytes and mtime (a rename over it
// or a rewrite of the same bytes changes the mtime).
using Snapshot = std::map<std::string, std::string>;

Snapshot snapshot(const fs::path& dir) {
  Snapshot entries;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    struct stat st {};
    if (::lstat(e.path().c_str(), &st) != 0) continue;  // gone since listed: absent, as after a run
    std::string state;
    if (S_ISREG(st.st_mode))
      state = "file mtime " + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + " " +
              read_bytes(e.path());
    else if (S_ISLNK(st.st_mode))
      state = "symlink to " + fs::read_symlink(e.path()).string();
    else
      state = S_ISDIR(st.st_mode) ? "directory" : "other";
    entries[e.path().lexically_relative(dir).string()] = state;  // fs::relative would follow symlinks
  }
  return entries;
}

std::vector<std::string> changes(const Snapshot& before, const Snapshot& after) {
  std::vector<std::string> out;
  for (const auto& [name, state] : after) {
    const auto it = before.find(name);
    if (it == before.end())
      out.push_back("created " + name);
    else if (it->second != state)
      out.push_back("changed " + name);
  }
  for (const auto& [name, state] : before)
    if (!after.count(name)) out.push_back("removed " + name);
  return out;
}

testing::AssertionResult one_error_line(const std::string& err) {
  if (err.rfind("gpuimg: ", 0) == 0 && err.back() == '\n' && std::count(err.begin(), err.end(), '\n') == 1)
    return testing::AssertionSuccess();
  return testing::AssertionFailure() << "stderr is not one line starting 'gpuimg: ': \"" << err << "\"";
}

// Runs gpuimg in `dir` and checks what every failure promises: `status`,
// nothing on stdout, one line on stderr holding each of `parts`, and no file
// under `dir` created (output or temporary), changed or removed (the input,
// an existing output).
RunResult expect_refusal(const TempDir& dir, const std::vector<std::string>& args, int status,
                         const std::vector<std::string>& parts, rlim_t max_file_bytes = 0) {
  const Snapshot before = snapshot(dir.path());
  const RunResult r = run_binary(args, {dir.path(), max_file_bytes});
  EXPECT_EQ(r.status, status) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(one_error_line(r.err));
  for (const std::string& part : parts)
    EXPECT_NE(r.err.find(part), std::string::npos) << "no '" << part << "' in " << r.err;
  EXPECT_EQ(changes(before, snapshot(dir.path())), std::vector<std::string>{});
  return r;
}

void copy_data(const std::string& name, const fs::path& to) { fs::copy_file(data_dir() / name, to); }

// Seeded, so the bytes and the message they get are the same in every run:
// these match no format's signature, nor the field rules TGA is sniffed by.
std::string random_bytes() {
  std::mt19937 rng(20240611);
  std::string bytes(4096, '\0');
  for (char& b : bytes) b = static_cast<char>(rng());
  return bytes;
}

std::string png_chunk(const std::string& type, const std::string& body) {
  auto be32 = [](std::uint32_t v) {
    return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  };
  const std::string typed = type + body;
  const auto crc = static_cast<std::uint32_t>(
      ::crc32(0, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size())));
  return be32(static_cast<std::uint32_t>(body.size())) + typed + be32(crc);
}

// A PNG whose every chunk is well formed, CRCs included, but whose header
// claims 100000x100000 RGB8: 30 GB decoded, behind one tiny IDAT.
std::string huge_png_header() {
  const std::string ihdr{0, 1, char(0x86), char(0xa0), 0, 1, char(0x86), char(0xa0), 8, 2, 0, 0, 0};
  const std::string idat("\x78\x9c\x63\x00\x00\x00\x01\x00\x01", 9);  // zlib of one zero byte
  return "\x89PNG\r\n\x1a\n" + png_chunk("IHDR", ihdr) + png_chunk("IDAT", idat) + png_chunk("IEND", "");
}

// ---- golden images ---------------------------------------------------------

class CliGolden : public testing::TestWithParam<GoldenCase> {};

TEST_P(CliGolden, CpuMatchesGolden) { expect_matches_golden(GetParam(), "cpu"); }

INSTANTIATE_TEST_SUITE_P(, CliGolden, testing::ValuesIn(read_golden_manifest().cases), golden_case_name);

TEST(CliGoldenManifest, EveryCaseHasItsGoldenAndEveryGoldenACase) {
  const GoldenManifest m = read_golden_manifest();
  EXPECT_EQ(m.problems, std::vector<std::string>{});
  ASSERT_FALSE(m.cases.empty());
  std::set<std::string> named;
  for (const GoldenCase& c : m.cases) {
    named.insert(c.name + ".png");
    EXPECT_TRUE(fs::is_regular_file(data_dir() / c.input)) << c.name << ": no input " << c.input;
  }
  std::set<std::string> present;
  for (const fs::directory_entry& e : fs::directory_iterator(golden_dir()))
    if (e.path().extension() == ".png") present.insert(e.path().filename().string());
  EXPECT_EQ(present, named)
      << "run build/gpuimg golden update data/golden/cases.txt --device cpu --prune after editing cases.txt";
}

// ---- successful runs -------------------------------------------------------

TEST(CliRun, SuccessIsSilentAndWritesOnlyTheOutput) {
  for (const std::vector<std::string>& device : std::vector<std::vector<std::string>>{{"--device", "cpu"}, {}}) {
    SCOPED_TRACE(device.empty() ? "--device auto by default" : "--device cpu");
    TempDir tmp;
    copy_data("scene.png", tmp / "input.png");
    const Snapshot before = snapshot(tmp.path());
    std::vector<std::string> args = {"input.png", "--blur", "3", "--invert"};
    args.insert(args.end(), device.begin(), device.end());
    args.push_back("result.png");
    const RunResult r = run_binary(args, {tmp.path()});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(changes(before, snapshot(tmp.path())), std::vector<std::string>{"created result.png"});
  }
}

TEST(CliRun, VerbosePrintsThePlanAndTimingsOnStderr) {
  TempDir tmp;
  const RunResult r = run_binary({(data_dir() / "scene.png").string(), "-v", "--blur", "3", "--sharpen", "0.8",
                                  "--invert", (tmp / "result.png").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::size_t at = 0;
  for (const std::string& expected : {std::string("320x200 RGB 8-bit"), std::string("device: cpu, auto: "),
                                      std::string("stage 1: blur R=3"),
                                      std::string("stage 2: sharpen F=0.8 "), std::string("stage 3: invert"),
                                      std::string("encoded")}) {
    const std::size_t found = r.err.find(expected, at);
    EXPECT_NE(found, std::string::npos) << "no '" << expected << "' after offset " << at << " in:\n" << r.err;
    if (found != std::string::npos) at = found;
  }
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_EQ(line.rfind("gpuimg: ", 0), 0u) << line;
    if (line.find("stage ") != std::string::npos) {
      EXPECT_NE(line.find(" ms"), std::string::npos) << line;
    }
  }
}

// The stages' names and times line up in columns whatever the names'
// lengths, past nine stages too, where "stage N:" stays one word and a
// space (scripts/multi_gpu.sh reads it so).
TEST(CliRun, VerboseStagesLineUp) {
  TempDir tmp;
  std::vector<std::string> args = {(data_dir() / "scene.png").string(), "-v", "--device", "cpu",
                                    "--levels",  "5%,95%,1.2", "--blur", "3", "--crop", "100x100"};
  for (int i = 0; i < 7; ++i) args.push_back("--invert");
  args.push_back(tmp.file("out.png"));
  const RunResult r = run_binary(args);
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.err);
  std::set<std::size_t> columns, colons;
  int stages = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("gpuimg: stage ", 0) != 0) continue;
    ++stages;
    ASSERT_TRUE(std::regex_search(line, std::regex("^gpuimg: stage [0-9]+: "))) << line;
    colons.insert(line.find_first_not_of(' ', line.find(':', 8) + 1));  // where the name starts
    // The time, or where the stage ran in another's pass.
    const std::size_t ms = line.find(" ms"), other = line.find(" in stage ");
    ASSERT_TRUE(ms != std::string::npos || other != std::string::npos) << line;
    columns.insert(other != std::string::npos ? other + 1 : line.rfind(' ', ms - 1) + 1);
  }
  EXPECT_EQ(stages, 10);
  EXPECT_EQ(columns.size(), 1u) << r.err;
  EXPECT_EQ(colons.size(), 1u) << r.err;
}

// What a format cannot hold is said with -v, one line each, and only then.
TEST(CliRun, VerboseSaysWhatTheOutputsFormatLoses) {
  TempDir tmp;
  write_image(tmp.file("rgba16.png"), random_image(5, 3, 4, Depth::U16, 3));
  RunResult r = run_binary({tmp.file("rgba16.png"), "-v", "--device", "cpu", tmp.file("out.jpg")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("gpuimg: " + tmp.file("out.jpg") + ": JPG holds no alpha: alpha dropped\n"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(": JPG holds 8-bit samples: 16-bit samples rounded to 8 bits\n"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("holds no colour"), std::string::npos) << r.err;
  r = run_binary({tmp.file("rgba16.png"), "-v", "--device", "cpu", tmp.file("out.pgm")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(": PGM holds no colour: RGB made gray by --grayscale's formula\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": PGM holds no alpha"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("8-bit samples"), std::string::npos) << r.err;  // PGM keeps 16 bits
  // BMP holds alpha in 32-bit files, which gpuimg reads but does not write.
  r = run_binary({tmp.file("rgba16.png"), "-v", "--device", "cpu", tmp.file("out.bmp")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(": BMP as gpuimg writes it (24-bit) holds no alpha: alpha dropped\n"), std::string::npos)
      << r.err;
  r = run_binary({(data_dir() / "gray_alpha16.png").string(), "-v", "--device", "cpu", tmp.file("gray.bmp")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find(": BMP as gpuimg writes it (8-bit gray) holds no alpha: alpha dropped\n"), std::string::npos)
      << r.err;
  // Nothing lost, nothing said; and never without -v.
  r = run_binary({tmp.file("rgba16.png"), "-v", "--device", "cpu", tmp.file("out.png")});
  EXPECT_EQ(r.err.find(" holds "), std::string::npos) << r.err;
  r = run_binary({tmp.file("rgba16.png"), "--device", "cpu", tmp.file("quiet.jpg")});
  EXPECT_EQ(r.err, "");
}

TEST(CliRun, HelpVersionAndListOpsPrintToStdoutAndSucceed) {
  std::vector<std::string> op_flags;
  for_each_op([&](auto tag) { op_flags.push_back(std::string("--") + decltype(tag)::type::name); });
  for (const std::string flag : {"--help", "--version", "--list-ops"}) {
    SCOPED_TRACE(flag);
    const RunResult r = run_binary({flag});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_FALSE(r.out.empty());
    if (flag == "--version") {
      EXPECT_EQ(r.out.rfind(std::string("gpuimg ") + GPUIMG_VERSION, 0), 0u) << r.out;
      continue;
    }
    std::size_t at = 0;
    for (const std::string& op : op_flags) {
      const std::size_t found = r.out.find(op, at);
      EXPECT_NE(found, std::string::npos) << op << " in:\n" << r.out;
      if (flag == "--list-ops" && found != std::string::npos) at = found;  // the table keeps registry order
    }
  }
}

// The README pins rounding and clamping after every stage, so that a
// pipeline gives the bytes of one run per operation; no backend may fuse
// stages.
TEST(CliRun, PipelineEqualsOneRunPerStage) {
  TempDir tmp;
  for (const char* input : {"scene.png", "scene16.png", "gray_alpha16.png"}) {
    SCOPED_TRACE(input);
    const std::string in = (data_dir() / input).string();
    const std::string both = (tmp / "both.png").string(), first = (tmp / "first.png").string(),
                      second = (tmp / "second.png").string();
    ASSERT_EQ(run_binary({in, "--sharpen", "0.7", "--blur", "2", "--device", "cpu", both}).status, 0);
    ASSERT_EQ(run_binary({in, "--sharpen", "0.7", "--device", "cpu", first}).status, 0);
    ASSERT_EQ(run_binary({first, "--blur", "2", "--device", "cpu", second}).status, 0);
    EXPECT_TRUE(same_samples(read_image(second), read_image(both)));
  }
}

// A private output stays private when a run replaces it.
TEST(CliRun, ReplacingAnOutputKeepsItsPermissionBits) {
  TempDir tmp;
  copy_data("tiny.png", tmp / "result.png");
  fs::permissions(tmp / "result.png", fs::perms::owner_read | fs::perms::owner_write);
  const RunResult r = run_binary({(data_dir() / "scene.png").string(), "--invert", "--device", "cpu", "result.png"}, {tmp.path()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::status(tmp / "result.png").permissions(), fs::perms::owner_read | fs::perms::owner_write);
  EXPECT_EQ(read_image((tmp / "result.png").string()).width, 320);
}

TEST(CliRun, MaxPixelsAllowsExactlyTheLimit) {
  TempDir tmp;
  const RunResult r = run_binary(
      {(data_dir() / "scene.png").string(), "--max-pixels", "64000", "--device", "cpu", (tmp / "out.png").string()});
  EXPECT_EQ(r.status, 0) << r.err;
}

// ---- inputs that cannot be read ---------------------------------------------

struct BadInput {
  const char* name;
  const char* file;  // the input's name in the test's directory
  void (*make)(const fs::path& file);
  std::vector<std::string> options;
  std::vector<std::string> problem;  // words the message must hold besides the file name
};

void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

class CliBadInput : public testing::TestWithParam<BadInput> {};

// Each case runs twice: with no output present, then over an existing
// output, which must survive byte for byte.
TEST_P(CliBadInput, FailsWithStatusOneAndTouchesNothing) {
  const BadInput& c = GetParam();
  TempDir tmp;
  c.make(tmp / c.file);
  if (HasFatalFailure()) return;
  std::vector<std::string> args = {c.file};
  args.insert(args.end(), c.options.begin(), c.options.end());
  args.insert(args.end(), {"--device", "cpu", "result.png"});
  std::vector<std::string> parts = {std::string(c.file) + ": "};
  parts.insert(parts.end(), c.problem.begin(), c.problem.end());

  // None of these needs real work; the huge header in particular must be
  // refused from its 33 bytes, before 30 GB are asked for.
  EXPECT_LT(expect_refusal(tmp, args, 1, parts).seconds, 2.0);
  copy_data("tiny.png", tmp / "result.png");
  EXPECT_LT(expect_refusal(tmp, args, 1, parts).seconds, 2.0);
}

void make_nothing(const fs::path&) {}
void make_directory(const fs::path& p) { fs::create_directory(p); }
void make_empty(const fs::path& p) { write_bytes(p, ""); }
void make_random(const fs::path& p) { write_bytes(p, random_bytes()); }
void make_truncated_png(const fs::path& p) {
  const std::string png = read_bytes(data_dir() / "scene.png");
  write_bytes(p, png.substr(0, png.size() / 2));
}
void make_truncated_jpeg(const fs::path& p) {
  const fs::path whole = p.parent_path() / "whole.jpg";
  const RunResult r = run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", whole.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string jpeg = read_bytes(whole);
  fs::remove(whole);
  write_bytes(p, jpeg.substr(0, jpeg.size() / 2));
}
// Bytes between the scan data and the end-of-image marker: the marker walk
// passes it, libjpeg decodes it with a warning it must not print.
void make_damaged_jpeg(const fs::path& p) {
  const fs::path whole = p.parent_path() / "whole.jpg";
  const RunResult r = run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", whole.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string jpeg = read_bytes(whole);
  fs::remove(whole);
  write_bytes(p, jpeg.substr(0, jpeg.size() - 2) + std::string(57, 'B') + jpeg.substr(jpeg.size() - 2));
}
void make_huge(const fs::path& p) { write_bytes(p, huge_png_header()); }
void make_dev_zero(const fs::path& p) { fs::create_symlink("/dev/zero", p); }
void make_scene(const fs::path& p) { copy_data("scene.png", p); }

INSTANTIATE_TEST_SUITE_P(
    , CliBadInput,
    testing::Values(BadInput{"missing", "input.png", make_nothing, {}, {"no such file"}},
                    BadInput{"zero_bytes", "input.png", make_empty, {}, {"empty"}},
                    BadInput{"random_bytes", "input.png", make_random, {}, {"not a recognised image"}},
                    BadInput{"truncated_png", "input.png", make_truncated_png, {}, {"truncated", "PNG"}},
                    BadInput{"truncated_jpeg", "input.jpg", make_truncated_jpeg, {}, {"truncated", "JPEG"}},
                    BadInput{"damaged_jpeg", "input.jpg", make_damaged_jpeg, {}, {"corrupt JPEG (libjpeg: ", "extraneous"}},
                    BadInput{"huge_header", "input.png", make_huge, {}, {"100000x100000", "--max-pixels"}},
                    BadInput{"endless_device", "input.png", make_dev_zero, {}, {"not a recognised image format"}},
                    BadInput{"over_max_pixels", "input.png", make_scene, {"--max-pixels", "63999"},
                             {"320x200", "--max-pixels"}}),
    [](const testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

// A folder INPUT, even one named like an image, is a bad command line
// (status 2) whose message gives the batch form.
TEST(CliBadInputFolder, IsRefusedWithTheBatchForm) {
  TempDir tmp;
  make_directory(tmp / "input.png");
  expect_refusal(tmp, {"input.png", "--device", "cpu", "result.png"}, 2,
                 {"input.png: is a folder; to process the images in it, end OUTPUT with '/' (result.png/)"});
}

// ---- bad command lines ------------------------------------------------------

struct BadUsage {
  const char* name;
  std::vector<std::string> args;  // run where input.png exists
  std::vector<std::string> parts;
};

void PrintTo(const BadUsage& c, std::ostream* os) { *os << c.name; }

class CliUsage : public testing::TestWithParam<BadUsage> {};

TEST_P(CliUsage, FailsWithStatusTwoAndTouchesNothing) {
  TempDir tmp;
  copy_data("tiny.png", tmp / "input.png");
  expect_refusal(tmp, GetParam().args, 2, GetParam().parts);
}

BadUsage bad_value(const char* name, const char* option, const char* value) {
  return {name, {"input.png", option, value, "result.png"}, {option, std::string("'") + value + "'"}};
}

INSTANTIATE_TEST_SUITE_P(
    , CliUsage,
    testing::Values(
        bad_value("blur_zero", "--blur", "0"), bad_value("blur_negative", "--blur", "-3"),
        bad_value("blur_not_a_number", "--blur", "three"), bad_value("blur_fraction", "--blur", "1.5"),
        bad_value("blur_over_max", "--blur", "4097"), bad_value("sharpen_negative", "--sharpen", "-0.5"),
        bad_value("sharpen_nan", "--sharpen", "nan"), bad_value("sharpen_inf", "--sharpen", "inf"),
        bad_value("sharpen_over_max", "--sharpen", "1000.001"), bad_value("sharpen_not_a_number", "--sharpen", "x"),
        bad_value("sharpen_hex", "--sharpen", "0x10"), bad_value("sharpen_overflow", "--sharpen", "1e400"),
        bad_value("quality_empty", "--quality", ""), bad_value("png_level_empty", "--png-level", ""),
        bad_value("max_pixels_empty", "--max-pixels", ""),
        bad_value("max_pixels_zero", "--max-pixels", "0"), bad_value("max_pixels_negative", "--max-pixels", "-1"),
        bad_value("max_pixels_not_a_number", "--max-pixels", "lots"),
        bad_value("max_pixels_over_2_64", "--max-pixels", "18446744073709551616"),
        bad_value("quality_zero", "--quality", "0"), bad_value("quality_over_max", "--quality", "101"),
        bad_value("quality_not_a_number", "--quality", "best"), bad_value("device_unknown", "--device", "opencl"),
        bad_value("png_level_over_max", "--png-level", "10"), bad_value("png_level_not_a_number", "--png-level", "best"),
        BadUsage{"unknown_option", {"input.png", "--frobnicate", "result.png"}, {"unknown option", "--frobnicate"}},
        BadUsage{"missing_value", {"input.png", "--blur"}, {"--blur"}},
        BadUsage{"missing_value_before_output", {"input.png", "--blur", "result.png"}, {"--blur"}},
        BadUsage{"value_for_a_flag", {"input.png", "--invert=no", "result.png"}, {"--invert"}},
        BadUsage{"missing_input_and_output", {}, {"missing INPUT"}},
        BadUsage{"missing_output", {"input.png"}, {"missing OUTPUT"}},
        BadUsage{"ops_but_no_output", {"input.png", "--invert"}, {"missing OUTPUT"}},
        BadUsage{"extra_path", {"input.png", "result.png", "other.png"}, {"other.png"}},
        BadUsage{"empty_input", {"", "--invert", "result.png"}, {"empty path given as INPUT"}},
        BadUsage{"empty_output", {"input.png", "--invert", ""}, {"empty path given as OUTPUT"}}),
    [](const testing::TestParamInfo<BadUsage>& info) { return std::string(info.param.name); });

// A folder as the one INPUT: the batch form is meant, with OUTPUT a folder.
TEST(CliUsageHints, AFolderInputWithAFileOutputNamesTheTrailingSlash) {
  TempDir tmp;
  fs::create_directory(tmp / "photos");
  copy_data("tiny.png", tmp / "photos" / "a.png");
  expect_refusal(tmp, {"photos", "--invert", "out"}, 2, {"photos: is a folder", "end OUTPUT with '/' (out/)"});
}

// ---- outputs that cannot be written ------------------------------------------

// The input is undecodable, so a message about the output shows that the
// output was checked first, before any decoding.
class CliOutput : public testing::Test {
 protected:
  void SetUp() override { write_bytes(tmp_ / "input.png", random_bytes()); }
  RunResult refuse(const std::string& output, int status, const std::vector<std::string>& parts) {
    return expect_refusal(tmp_, {"input.png", "--invert", output}, status, parts);
  }
  TempDir tmp_;
};

TEST_F(CliOutput, UnsupportedExtensionFailsBeforeDecoding) {
  refuse("result.xyz", 1, {"result.xyz: ", "'.xyz'"});
  refuse("result", 1, {"result: ", "extension"});
}

TEST_F(CliOutput, MissingDirectory) { refuse("missing/result.png", 1, {"missing/result.png: ", "does not exist"}); }

// Unlike a permission bit, this fails for root too.
TEST_F(CliOutput, ParentIsARegularFile) {
  write_bytes(tmp_ / "file", "not a directory");
  refuse("file/result.png", 1, {"file/result.png: ", "not a directory"});
}

TEST_F(CliOutput, OutputIsADirectory) {
  fs::create_directory(tmp_ / "result.png");
  refuse("result.png", 1, {"result.png: ", "is a directory"});
}

TEST_F(CliOutput, DirectoryNotWritable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write to a directory whatever its mode";
  fs::create_directory(tmp_ / "locked");
  fs::permissions(tmp_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
  refuse("locked/result.png", 1, {"locked/result.png: ", "not writable"});
  fs::permissions(tmp_ / "locked", fs::perms::owner_all);  // else a file wrongly written there outlives TempDir
}

// As cp: a file made read-only is not replaced, though the folder would
// let a rename replace it.
TEST_F(CliOutput, ReadOnlyFileIsNotReplaced) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write to a file whatever its mode";
  write_bytes(tmp_ / "result.png", "kept");
  fs::permissions(tmp_ / "result.png", fs::perms::owner_read);
  refuse("result.png", 1, {"result.png: ", "is write-protected"});
  // Past the early check too: the write itself refuses it.
  try {
    write_image(tmp_.file("result.png"), random_image(2, 2, 3, Depth::U8, 2));
    ADD_FAILURE() << "replaced a read-only file";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("is write-protected"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_bytes(tmp_ / "result.png"), "kept");
  fs::permissions(tmp_ / "result.png", fs::perms::owner_all);
}

// The one failure here that comes after the temporary file exists: the
// temporary must go and an older output must stay. scene.png inverted
// encodes to about 100 KB, of which 4 KB fit.
TEST(CliFullDisk, LeavesNoTemporaryAndKeepsAnExistingOutput) {
  TempDir tmp;
  copy_data("scene.png", tmp / "input.png");
  const std::vector<std::string> args = {"input.png", "--invert", "--device", "cpu", "result.png"};
  expect_refusal(tmp, args, 1, {"result.png: ", "write"}, 4096);
  copy_data("tiny.png", tmp / "result.png");
  expect_refusal(tmp, args, 1, {"result.png: ", "write"}, 4096);
}

// `gpuimg a.png a.png` is a slip that would lose the original: every
// spelling of the input as the output is a usage error.
TEST(CliOutputIsInput, RefusedWithStatusTwoForEverySpelling) {
  TempDir tmp;
  copy_data("scene.png", tmp / "input.png");
  fs::create_symlink("input.png", tmp / "symlink.png");
  fs::create_hard_link(tmp / "input.png", tmp / "hardlink.png");
  for (const char* output : {"input.png", "./input.png", "symlink.png", "hardlink.png"}) {
    SCOPED_TRACE(output);
    expect_refusal(tmp, {"input.png", "--invert", output}, 2, {std::string(output) + ": ", "input"});
  }
}

// ---- the device -------------------------------------------------------------

TEST(CliDevice, CudaWithoutAUsableGpuFailsWithStatusThree) {
  std::string detail;
  if (cuda_usable(&detail)) GTEST_SKIP() << "a usable GPU is here: " << detail;
  TempDir tmp;
  copy_data("scene.png", tmp / "input.png");
  expect_refusal(tmp, {"input.png", "--device", "cuda", "--blur", "1", "result.png"}, 3, {"--device cuda: "});
}

// A 320x200 image blurred and inverted takes a fraction of a millisecond on
// the CPU: auto runs it there, GPU or not, and -v says why in one line.
TEST(CliDevice, AutoRunsACheapPipelineOnTheCpuAndSaysWhy) {
  TempDir tmp;
  const RunResult r = run_binary(
      {(data_dir() / "scene.png").string(), "-v", "--blur", "3", "--invert", (tmp / "out.png").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = device_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("gpuimg: device: cpu, auto: the pipeline is estimated at ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(" on the CPU, under CUDA's start-up and exit (about "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("so CUDA was not started (ready "), std::string::npos) << lines[0];
  EXPECT_TRUE(same_samples(read_image((golden_dir() / "scene_blur3_invert.png").string()),
                           read_image((tmp / "out.png").string())));
}

// Where the estimate is over CUDA's start-up and exit, auto looks for a GPU
// as it always did, and on a machine without one says so, as it always did.
TEST(CliDevice, AutoWithAHeavyPipelineLooksForAGpu) {
  std::string why_not;
  if (cuda_usable(&why_not)) GTEST_SKIP() << "a usable GPU is here (CliGpu.AutoChoosesCudaForAHeavyPipeline)";
  TempDir tmp;
  std::vector<std::string> args = heavy_auto_args(tmp);
  args.insert(args.end(), {"-v", tmp.file("out.png")});
  const RunResult r = run_binary(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = device_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("gpuimg: device: cpu, " + why_not + " (ready ", 0), 0u) << lines[0];
}

#if GPUIMG_WITH_CUDA
// A stand-in driver on the library path records whether the CUDA runtime
// loaded it: --device cuda must (or this test could not tell), auto with a
// cheap pipeline must not, so neither CUDA's start-up nor its teardown at
// exit is paid.
TEST(CliDevice, AutoWithACheapPipelineNeverLoadsTheCudaDriver) {
  TempDir tmp;
  RunOptions with_fake_driver;
  with_fake_driver.env = {"LD_LIBRARY_PATH=" GPUIMG_FAKE_DRIVER_DIR, "GPUIMG_TEST_DRIVER_MARKER=" + tmp.file("loaded")};
  const std::string scene = (data_dir() / "scene.png").string();
  const RunResult cuda = run_binary({scene, "--invert", "--device", "cuda", tmp.file("cuda.png")}, with_fake_driver);
  EXPECT_EQ(cuda.status, 3) << cuda.err;
  ASSERT_TRUE(fs::exists(tmp / "loaded")) << "--device cuda did not load the stand-in driver:\n" << cuda.err;
  fs::remove(tmp / "loaded");

  const RunResult r = run_binary({scene, "-v", "--blur", "3", "--invert", tmp.file("auto.png")}, with_fake_driver);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(tmp / "loaded")) << r.err;
}
#endif

}  // namespace
}  // namespace gpuimg::test
