// --ignore-aa as a user gives it to `compare`, and as the word ignore-aa in
// a golden manifest case: anti-aliased shapes moved by 0.3 pixel pass with
// it and fail without; a new block fails either way; the difference
// picture shows the left-out pixels in blue.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "antialiased_shapes.hpp"
#include "codec.hpp"
#include "diff_image.hpp"
#include "json_reader.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

namespace fs = std::filesystem;

struct Shapes {
  TempDir tmp;
  std::string still = write("still.png", antialiased_shapes(80, 72, 0, 3, Depth::U8));
  std::string moved = write("moved.png", antialiased_shapes(80, 72, 0.3, 3, Depth::U8));
  std::string block = write("block.png", with_block(antialiased_shapes(80, 72, 0, 3, Depth::U8), 62, 40, 16, 14));
  std::string write(const char* name, const Image& img) {
    const std::string path = (tmp / name).string();
    write_image(path, img);
    return path;
  }
};

TEST(CompareAntiAliasCli, AMovedEdgePassesANewBlockFails) {
  Shapes s;
  EXPECT_EQ(run_binary({"compare", s.still, s.moved}).status, 1);
  const std::string diff = (s.tmp / "diff.png").string();
  RunResult r = run_binary({"compare", s.still, s.moved, "--ignore-aa", "--diff", diff});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find(" differing pixels left out as anti-aliased\n"), std::string::npos) << r.out;
  const Image picture = read_image(diff);
  std::size_t blue = 0;
  for (std::size_t i = 0; i < picture.pixel_count(); ++i)
    blue += std::equal(kDiffAntiAliased, kDiffAntiAliased + 3, picture.data.begin() + i * 3);
  EXPECT_GT(blue, 100u);

  EXPECT_EQ(run_binary({"compare", s.still, s.block}).status, 1);
  r = run_binary({"compare", s.still, s.block, "--ignore-aa", "--json"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find(R"("differing_pixels": 224,)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("notes": ["0 differing pixels left out as anti-aliased"])"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("scope": {"threshold": null, "ignore_aa": true, "anti_aliased_pixels": 0})"),
            std::string::npos)
      << r.out;
  r = run_binary({"compare", s.still, s.moved, "--ignore-aa", "--threshold", "0.05", "--json"});
  const Json report = parse_json(r.out);
  const Json& scope = report["scope"];
  EXPECT_EQ(scope["threshold"].number, 0.05) << r.out;
  EXPECT_TRUE(scope["ignore_aa"].boolean);
  EXPECT_GT(scope["anti_aliased_pixels"].number, 100) << "the moved shape's edges";
  EXPECT_NE(run_binary({"compare", "--help"}).out.find("--ignore-aa"), std::string::npos);
}

TEST(CompareAntiAliasCli, ManifestCasesTakeIgnoreAa) {
  Shapes s;
  fs::copy_file(s.moved, s.tmp / "moved_aa.png");
  fs::copy_file(s.moved, s.tmp / "moved_exact.png");
  fs::copy_file(s.block, s.tmp / "block_aa.png");
  const std::string manifest = (s.tmp / "golden.txt").string();
  std::ofstream(manifest) << "moved_aa    | still.png | --invert --invert | ignore-aa\n"
                             "moved_exact | still.png | --invert --invert\n"
                             "block_aa    | still.png | --invert --invert | ignore-aa max-diff=0\n";
  RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("3 cases: 1 passed, 2 failed, 0 errors"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("moved_aa                             pass"), std::string::npos) << r.out;
  std::ofstream(manifest) << "moved | still.png | --invert | ignore-aa=yes\n";
  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find("golden.txt:1: 'ignore-aa=yes' is not LIMIT=VALUE"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

}  // namespace
}  // namespace gpuimg::test
