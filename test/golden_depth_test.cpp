// A manifest case takes --depth as the processing command does: `update`
// writes the golden at that depth and `check` compares at it, the samples
// those of `gpuimg INPUT OPERATIONS --depth N out.png`.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "codec.hpp"
#include "error.hpp"
#include "golden_command.hpp"
#include "image_compare.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

TEST(GoldenDepth, CasesParseDepthBesideTheirOperations) {
  CaseArgs a = parse_case_args({"--invert", "--depth", "16", "--blur", "1"});
  ASSERT_EQ(a.pipeline.size(), 2u);
  EXPECT_EQ(describe(a.pipeline[0]), "invert");
  EXPECT_EQ(describe(a.pipeline[1]), "blur R=1");
  EXPECT_EQ(a.depth, Depth::U16);
  EXPECT_EQ(parse_case_args({"--depth=8"}).depth, Depth::U8);
  // A setting given twice takes the last, as on the command line.
  EXPECT_EQ(parse_case_args({"--depth", "16", "--invert", "--depth", "8"}).depth, Depth::U8);
  EXPECT_FALSE(parse_case_args({"--invert"}).depth.has_value());

  const auto refusal = [](const std::vector<std::string>& words) {
    try {
      parse_case_args(words);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refusal({"--depth", "12"}), "--depth: must be 8 or 16 (bits a sample), got '12'");
  EXPECT_EQ(refusal({"--depth", ""}), "--depth: must be 8 or 16 (bits a sample), got ''");
  EXPECT_NE(refusal({"--invert", "--depth"}), "");
  // The encoder's options change nothing a golden (a PNG) holds: not
  // taken, and said to be the processing command's.
  const std::string setting =
      " is a setting of the processing command: a case takes operations and --depth, and its golden is NAME.png";
  EXPECT_EQ(refusal({"--quality", "80"}), "--quality" + setting);
  EXPECT_EQ(refusal({"--invert", "--format=jpg"}), "--format" + setting);
  EXPECT_EQ(refusal({"--strip"}), "--strip" + setting);
  EXPECT_EQ(refusal({"--devices", "all"}), "--devices" + setting);
  EXPECT_EQ(refusal({"--invert", "--skip-existing"}), "--skip-existing" + setting);
  EXPECT_EQ(refusal({"--blur", "1", "--device", "cpu"}), "--device goes to golden check or update, for every case");
  EXPECT_EQ(refusal({"--verbose"}), "--verbose goes to golden check or update, for every case");
  EXPECT_EQ(refusal({"--dpth", "8"}), "not an operation or its value: --dpth 8; did you mean --depth?");
}

TEST(GoldenDepth, UpdateWritesAndCheckComparesAtTheCasesDepth) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  fs::copy_file(data_dir() / "scene16.png", tmp / "scene16.png");
  const std::string manifest = tmp.file("cases.txt");
  std::ofstream(manifest) << "deep    | gray.png    | --invert --depth 16\n"
                             "shallow | scene16.png | --depth=8 --blur 1\n"
                             "kept    | scene16.png | --depth 16\n";
  RunResult r = run_binary({"golden", "update", manifest, "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;

  // The processing command's own outputs, for the same words.
  const auto processed = [&](const std::vector<std::string>& words, const std::string& name) {
    std::vector<std::string> args = words;
    args.insert(args.end(), {"--device", "cpu", tmp.file(name)});
    EXPECT_EQ(run_binary(args).status, 0);
    return read_image(tmp.file(name));
  };
  const Image deep = read_image(tmp.file("deep.png"));
  EXPECT_EQ(deep.depth, Depth::U16);
  EXPECT_TRUE(same_samples(processed({tmp.file("gray.png"), "--invert", "--depth", "16"}, "p1.png"), deep));
  // 255 - v, widened as v * 257.
  const Image gray = read_image(tmp.file("gray.png"));
  EXPECT_EQ(deep.samples<std::uint16_t>()[0], (255 - gray.samples<std::uint8_t>()[0]) * 257);
  const Image shallow = read_image(tmp.file("shallow.png"));
  EXPECT_EQ(shallow.depth, Depth::U8);
  EXPECT_TRUE(same_samples(processed({tmp.file("scene16.png"), "--blur", "1", "--depth", "8"}, "p2.png"), shallow));
  EXPECT_TRUE(same_samples(read_image(tmp.file("scene16.png")), read_image(tmp.file("kept.png"))));

  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("3 cases: 3 passed, 0 failed, 0 errors"), std::string::npos) << r.out;

  // Without --depth the case's output is 8-bit, and the 16-bit golden is no match.
  std::ofstream(manifest) << "deep | gray.png | --invert\n";
  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("depth 16-bit vs 8-bit"), std::string::npos) << r.out;
}

// A bad or missing value is the line's error, in the command line's words.
TEST(GoldenDepth, ABadDepthIsTheLinesError) {
  TempDir tmp;
  fs::copy_file(data_dir() / "gray.png", tmp / "gray.png");
  const std::string manifest = tmp.file("cases.txt");
  for (const auto& [args, message] :
       {std::pair<std::string, std::string>{"--invert --depth 12", "--depth: must be 8 or 16 (bits a sample), got '12'"},
        {"--invert --depth", "--depth: missing its value, 8|16"},
        {"--resize", "--resize: missing its value, SIZE[:FILTER]"}}) {
    std::ofstream(manifest) << "ok  | gray.png | --invert\n"
                               "odd | gray.png | " + args + "\n";
    for (const char* command : {"check", "update"}) {
      SCOPED_TRACE(std::string(command) + " " + args);
      const RunResult r = run_binary({"golden", command, manifest, "--device", "cpu"});
      EXPECT_EQ(r.status, 2);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(r.err, "gpuimg: " + manifest + ":2: " + message + "\n");
      EXPECT_FALSE(fs::exists(tmp / "ok.png"));
      EXPECT_FALSE(fs::exists(tmp / "odd.png"));
    }
  }
}

}  // namespace
}  // namespace gpuimg::test
