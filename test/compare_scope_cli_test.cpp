// --ignore, --mask and --alpha as a user gives them to `compare`, and as
// fields of a golden manifest case: a changed block inside an ignored
// rectangle or under a mask's black passes, outside fails; RGB against the
// same pixels with an opaque alpha channel passes, with a note.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codec.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

namespace fs = std::filesystem;

std::string data(const char* name) { return (data_dir() / name).string(); }

// scene.png with a 20x20 block at (10, 10) painted red.
std::string scene_with_block(const TempDir& tmp) {
  Image img = read_image(data("scene.png"));
  for (int y = 10; y < 30; ++y)
    for (int x = 10; x < 30; ++x) {
      std::uint8_t* p = img.data.data() + (static_cast<std::size_t>(y) * img.width + x) * 3;
      p[0] = 255, p[1] = 0, p[2] = 0;
    }
  const std::string out = (tmp / "block.png").string();
  write_image(out, img);
  return out;
}

// A 320x200 gray mask: white, with black (left out) over the rectangle given.
std::string mask_file(const TempDir& tmp, const char* name, int x0, int y0, int w, int h) {
  Image m(320, 200, 1, Depth::U8);
  std::fill(m.data.begin(), m.data.end(), 255);
  for (int y = y0; y < y0 + h; ++y)
    for (int x = x0; x < x0 + w; ++x) m.data[static_cast<std::size_t>(y) * 320 + x] = 0;
  const std::string out = (tmp / name).string();
  write_image(out, m);
  return out;
}

int status(std::vector<std::string> args) { return run_binary(args).status; }

TEST(CompareScopeCli, IgnoredRectanglesAndMasks) {
  TempDir tmp;
  const std::string block = scene_with_block(tmp);
  const std::string scene = data("scene.png");
  EXPECT_EQ(status({"compare", scene, block}), 1);
  // Options after the files, repeated, in any order.
  const RunResult r = run_binary({"compare", scene, block, "--ignore", "400,50,10,10", "--ignore", "5,5,30,30"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("note: 900 of 64000 pixels left out by the ignored rectangles\n"), std::string::npos) << r.out;
  EXPECT_EQ(status({"compare", "--ignore", "10,10,20,19", scene, block}), 1);  // one row still differs
  EXPECT_EQ(status({"compare", scene, block, "--mask", mask_file(tmp, "hides.png", 10, 10, 20, 20)}), 0);
  EXPECT_EQ(status({"compare", scene, block, "--mask", mask_file(tmp, "elsewhere.png", 100, 10, 20, 20)}), 1);
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"compare", scene, block, "--ignore", "5,5,30"},
           {"compare", scene, block, "--ignore", "5,5,0,30"},
           {"compare", scene, block, "--ignore", "0,0,320,200"},  // nothing left to compare
           {"compare", scene, block, "--alpha", "drop"},
           {"compare", scene, block, "--mask", data("tiny.png")},
           {"compare", scene, block, "--mask", (tmp / "missing.png").string()}}) {
    SCOPED_TRACE(testing::PrintToString(args));
    const RunResult bad = run_binary(args);
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.err.rfind("gpuimg: ", 0), 0u) << bad.err;
    EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << bad.err;
  }
}

TEST(CompareScopeCli, AnOpaqueAlphaChannelComparesEqualToNone) {
  TempDir tmp;
  const Image rgb = read_image(data("scene.png"));
  Image rgba(rgb.width, rgb.height, 4, Depth::U8);
  for (std::size_t p = 0; p < rgb.pixel_count(); ++p) {
    for (int c = 0; c < 3; ++c) rgba.data[p * 4 + c] = rgb.data[p * 3 + c];
    rgba.data[p * 4 + 3] = 255;
  }
  const std::string opaque = (tmp / "opaque.png").string();
  write_image(opaque, rgba);
  RunResult r = run_binary({"compare", data("scene.png"), opaque, "--json"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find(R"("notes": ["actual's alpha channel is opaque everywhere: compared without it"])"),
            std::string::npos)
      << r.out;
  rgba.data[3] = 254;
  const std::string translucent = (tmp / "translucent.png").string();
  write_image(translucent, rgba);
  EXPECT_EQ(status({"compare", data("scene.png"), translucent}), 1);
  EXPECT_EQ(status({"compare", data("scene.png"), translucent, "--alpha", "ignore"}), 0);
  EXPECT_EQ(status({"compare", opaque, translucent}), 1);
  EXPECT_EQ(status({"compare", opaque, translucent, "--alpha", "ignore"}), 0);
}

TEST(CompareScopeCli, ManifestCasesTakeIgnoreMaskAndAlpha) {
  TempDir tmp;
  fs::copy_file(data_dir() / "scene.png", tmp / "scene.png");
  fs::copy_file(scene_with_block(tmp), tmp / "drift.png");
  fs::copy_file(tmp / "drift.png", tmp / "hidden.png");
  fs::copy_file(tmp / "drift.png", tmp / "masked.png");
  fs::create_directory(tmp / "masks");
  mask_file(tmp, "masks/m.png", 10, 10, 20, 20);
  const std::string manifest = (tmp / "golden.txt").string();
  std::ofstream(manifest) << "drift  | scene.png | --invert --invert\n"
                             "hidden | scene.png | --invert --invert | ignore=0,0,1,1 ignore=10,10,20,20\n"
                             "masked | scene.png | --invert --invert | mask=masks/m.png max-diff=0\n";
  RunResult r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.err << r.out;
  EXPECT_NE(r.out.find("3 cases: 2 passed, 1 failed, 0 errors"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("note: 400 of 64000 pixels left out by the mask's black pixels"), std::string::npos) << r.out;
  std::ofstream(manifest) << "hidden | scene.png | --invert | ignore=10,10,20\n";
  r = run_binary({"golden", "check", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find("golden.txt:1: ignore= must be X,Y,W,H"), std::string::npos) << r.err;
}

// A mask that is not there fails update as it would fail check, and that
// case's golden is not written.
TEST(CompareScopeCli, UpdateReportsAMissingMask) {
  TempDir tmp;
  fs::copy_file(data_dir() / "scene.png", tmp / "scene.png");
  const std::string manifest = (tmp / "golden.txt").string();
  std::ofstream(manifest) << "kept   | scene.png | --invert\n"
                             "masked | scene.png | --invert | mask=none.png\n";
  const RunResult r = run_binary({"golden", "update", manifest, "--device", "cpu"});
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("masked: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("none.png: no such file"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "kept.png"));
  EXPECT_FALSE(fs::exists(tmp / "masked.png"));
}

}  // namespace
}  // namespace gpuimg::test
