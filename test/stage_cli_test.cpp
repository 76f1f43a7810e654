// Stages that change the image's shape, from the command line: their
// errors (one line, the right exit status, no output file), the limit held
// from the header for every stage, shapes in -v, and batch mode over inputs
// of different shapes.
#include <gtest/gtest.h>

#include <fstream>
#include <tuple>

#include "codec.hpp"
#include "image_compare.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

struct Refusal {
  std::vector<std::string> ops;
  int status;
  std::string says;
};

TEST(CliStages, BadGeometryAndSizesAreOneLineAndNoOutput) {
  const std::vector<Refusal> refusals = {
      {{"--crop", "10x"}, 2, "--crop: GEOMETRY must be WxH+X+Y"},
      {{"--crop", "0x5+1+1"}, 2, "--crop: GEOMETRY must be"},
      {{"--crop", "5x5+1"}, 2, "--crop: GEOMETRY must be"},
      {{"--crop", "150%"}, 2, "--crop: GEOMETRY must be WxH+X+Y (offsets may be negative) or WxH (centred), sides from 1 to 2147483647, or with A%xB% or N% of the image's sides (above 0, at most 100%) for WxH, got '150%'"},
      {{"--crop", "50x50%"}, 2, "--crop: GEOMETRY must be"},
      {{"--crop", "50%x50%+400+0"}, 1, "scene.png: stage 1 (crop GEOMETRY=50%+400+0): the region lies outside the 320x200 image"},
      {{"--rotate", "45"}, 2, "ANGLE must be one of 0, 90, 180, 270, 360, -90, -180, -270, -360, got '45'"},
      {{"--rotate", "450"}, 2, "ANGLE must be one of 0, 90, 180, 270, 360, -90, -180, -270, -360, got '450'"},
      {{"--resize", "0x10"}, 2, "--resize: SIZE must be WxH (exactly), WxH> (to fit inside, only shrinking), WxH< (to fit inside, only enlarging) or WxH^ (to fill), Wx or xH (the other side keeps the aspect ratio), N% or A%xB% (of each side)"},
      {{"--resize", "50x25%"}, 2, "--resize: SIZE must be"},
      {{"--resize", "50%x25%>"}, 2, "--resize: SIZE must be"},
      {{"--resize", "x100<"}, 2, "--resize: SIZE must be"},
      {{"--resize", "128x>"}, 2, "--resize: SIZE must be"},
      {{"--resize", "-5%"}, 2, "--resize: SIZE must be"},
      {{"--resize", "50%:hamming"}, 2, "FILTER must be one of nearest, box, linear, cubic, lanczos3, got 'hamming'"},
      {{"--resize", "50%:"}, 2, "nothing after ':'"},
      {{"--resize", "50%:lanczos3:"}, 2, "nothing after the last ':' in '50%:lanczos3:'"},
      {{"--resize", "1073741824x"}, 2, "--resize: SIZE must be"},
      {{"--crop", "1x2", "--resize", "1073741823x"}, 1, "stage 2 (resize SIZE=1073741823x FILTER=lanczos3): the new size is past 2^30 - 1 pixels a side"},
      {{"--crop", "10x10+400+0"}, 1, "scene.png: stage 1 (crop GEOMETRY=10x10+400+0): the region lies outside the 320x200 image"},
      {{"--resize", "100000%"}, 1, "stage 1 (resize SIZE=100000% FILTER=lanczos3) would make 320000x200000 pixels, more than --max-pixels"},
      {{"--crop", "8x8", "--resize", "1000x1000", "--max-pixels", "100000"}, 1, "stage 2 (resize SIZE=1000x1000"},
      {{"--levels", "0.9,0.1"}, 2, "--levels: B must be below W"},
      {{"--levels", "10%,10%"}, 2, "--levels: B must be below W"},
      {{"--levels", "0.1"}, 2, "--levels: W is missing: expected B,W[,G], got '0.1'"},
      {{"--levels", "0.1,0.9,0"}, 2, "--levels: G must be a decimal number above 0, at most 100, got '0'"},
      {{"--levels", "0.1,0.9,1,2"}, 2, "--levels: unexpected ',2' in '0.1,0.9,1,2'"},
      {{"--levels", "-1%,50%"}, 2, "--levels: B must be a fraction from 0 to 1 or a percentage from 0% to 100%, got '-1%'"},
      {{"--gamma", "0"}, 2, "--gamma: G must be a decimal number above 0, at most 100, got '0'"},
      {{"--threshold", "150%"}, 2, "--threshold: T must be a fraction from 0 to 1 or a percentage from 0% to 100%, got '150%'"},
      {{"--threshold", "%"}, 2, "--threshold: T must be"},
      {{"--linear", "1,"}, 2, "--linear: nothing after ',' in '1,'"},
      {{"--linear", "1"}, 2, "--linear: B is missing: expected A,B, got '1'"},
      {{"--linear", "1,-100001%"}, 2,
       "--linear: B must be a fraction from -1000 to 1000 or a percentage from -100000% to 100000%, got '-100001%'"},
      {{"--convolve", "2x2:1,1,1,1"}, 2, "--convolve: SIZE must be WxH with both sides odd, from 1 to 31, got '2x2'"},
      {{"--convolve", "33x1:1"}, 2, "--convolve: SIZE must be WxH with both sides odd, from 1 to 31, got '33x1'"},
      {{"--convolve", "3x:1,2,3"}, 2, "--convolve: SIZE must be WxH with both sides odd"},
      {{"--convolve", "50%:1"}, 2, "--convolve: SIZE must be WxH with both sides odd"},
      {{"--convolve", "3x3:1,2"}, 2, "--convolve: a 3x3 kernel needs 9 weights, got 2"},
      {{"--convolve", "1x5:1,2,3,4,5,6"}, 2, "--convolve: a 1x5 kernel needs 5 weights, got 6"},
      {{"--convolve", "3x3:1,,2"}, 2, "--convolve: WEIGHTS must be 1 to 961 numbers between commas, each from -65536 to 65536, got '1,,2': number 2 is empty"},
      {{"--convolve", "5x5:1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,x"}, 2,
       "--convolve: WEIGHTS must be 1 to 961 numbers between commas, each from -65536 to 65536; number 25 is 'x'"},
      {{"--convolve", "1x1:65537"}, 2, "--convolve: WEIGHTS must be 1 to 961 numbers"},
      {{"--convolve", "3x3"}, 2, "--convolve: WEIGHTS is missing: expected SIZE:WEIGHTS, got '3x3'"},
      {{"--convolve", "1x1:1:"}, 2, "--convolve: WEIGHTS must be"},
      {{"--gaussian", "0"}, 2, "--gaussian: S must be a decimal number above 0, at most 100, got '0'"},
      {{"--gaussian", "101"}, 2, "--gaussian: S must be a decimal number above 0, at most 100, got '101'"},
      {{"--gaussian", "1,2"}, 2, "--gaussian: S must be a decimal number above 0, at most 100, got '1,2'"},
      {{"--unsharp", "1,2,150%"}, 2, "--unsharp: T must be a fraction from 0 to 1 or a percentage from 0% to 100%, got '150%'"},
      {{"--unsharp", "0,1"}, 2, "--unsharp: S must be a decimal number above 0, at most 100, got '0'"},
      {{"--unsharp", "2,101"}, 2, "--unsharp: A must be a decimal number from 0 to 100, got '101'"},
      {{"--unsharp", "2,-1"}, 2, "--unsharp: A must be a decimal number from 0 to 100, got '-1'"},
      {{"--unsharp", "2,1,1%,3"}, 2, "--unsharp: unexpected ',3' in '2,1,1%,3'"},
  };
  for (const Refusal& bad : refusals) {
    SCOPED_TRACE(bad.ops.front() + " " + bad.ops[1]);
    TempDir tmp;
    std::vector<std::string> args = {(data_dir() / "scene.png").string()};
    args.insert(args.end(), bad.ops.begin(), bad.ops.end());
    args.push_back((tmp / "out.png").string());
    const RunResult r = run_binary(args);
    EXPECT_EQ(r.status, bad.status) << r.err;
    EXPECT_NE(r.err.find(bad.says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(tmp / "out.png"));
  }
}

// The limit from the header: a resize past it is refused in the time a
// header takes, with no pixel memory; the same image under the limit runs.
TEST(CliStages, EveryStageIsHeldToTheLimitBeforeDecoding) {
  TempDir tmp;
  const RunResult big = run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--resize", "10000%",
                                    (tmp / "out.png").string()});
  EXPECT_EQ(big.status, 1) << big.err;
  EXPECT_NE(big.err.find("32000x20000 pixels, more than --max-pixels 268435456"), std::string::npos) << big.err;
  EXPECT_TRUE(peak_rss_below(big, 200 * 1024)) << big.peak_rss_kib << " KiB: 32000x20000 RGB would take 1.9 GB";
  const RunResult ok = run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--resize", "50%",
                                   (tmp / "out.png").string()});
  EXPECT_EQ(ok.status, 0) << ok.err;
  const Image out = read_image((tmp / "out.png").string());
  EXPECT_EQ(out.width, 160);
  EXPECT_EQ(out.height, 100);
}

// What a resize holds besides its input and output counts too: the pass
// between its two (a 1x40000 image to 40000x1 passes through 40000x40000,
// 6.4 GB at RGBA 8-bit) and its tables (an 8x1 image to 50000000x1 needs
// some 400 million weights for a 50 MB output).
TEST(CliStages, AResizesWorkingMemoryIsHeldToTheLimitToo) {
  TempDir tmp;
  const auto pgm = [&](const std::string& name, int w, int h) {
    std::ofstream f(tmp / name, std::ios::binary);
    f << "P5\n" << w << " " << h << "\n255\n" << std::string(std::size_t(w) * h, '\x7f');
    return (tmp / name).string();
  };
  const std::string column = pgm("column.pgm", 1, 40000), row = pgm("row.pgm", 8, 1);
  for (const auto& [input, size, says] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {column, "40000x1", "would work through 1600000000 pixels"},
           {row, "50000000x1", "pixels (between its passes, or in its tables), more than --max-pixels 268435456"}}) {
    SCOPED_TRACE(size);
    const RunResult r = run_binary({input, "--device", "cpu", "--resize", size, (tmp / "out.png").string()});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_TRUE(peak_rss_below(r, 200 * 1024)) << r.peak_rss_kib;
    EXPECT_LT(r.seconds, 5);
    EXPECT_FALSE(fs::exists(tmp / "out.png"));
  }
  // Under the limit the same shapes run: 1x400 to 400x1 passes through 400x400.
  const RunResult small = run_binary({pgm("short.pgm", 1, 400), "--device", "cpu", "--resize", "400x1",
                                      (tmp / "out.png").string()});
  EXPECT_EQ(small.status, 0) << small.err;
}

TEST(CliStages, VerboseShowsEachStagesShapes) {
  TempDir tmp;
  const RunResult r = run_binary({(data_dir() / "scene.png").string(), "-v", "--device", "cpu", "--crop", "100x60+10+20",
                                  "--rotate", "90", "--grayscale", "--resize", "x30:box", (tmp / "out.png").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* expected :
       {"stage 1: crop GEOMETRY=100x60+10+20", "320x200 RGB 8-bit -> 100x60 RGB 8-bit",
        "100x60 RGB 8-bit -> 60x100 RGB 8-bit", "60x100 RGB 8-bit -> 60x100 gray 8-bit",
        "stage 4: resize SIZE=18x30 FILTER=box", "60x100 gray 8-bit -> 18x30 gray 8-bit"})
    EXPECT_NE(r.err.find(expected), std::string::npos) << expected << " in:\n" << r.err;
  const Image out = read_image((tmp / "out.png").string());
  EXPECT_EQ(out.width, 18);
  EXPECT_EQ(out.height, 30);
  EXPECT_EQ(out.channels, 1);
}

// The turns that change nothing are taken from the command line, and their
// output is the input's samples; -90 is 270.
TEST(CliStages, RotateByAFullTurnOrNoneWritesTheInput) {
  TempDir tmp;
  const Image in = read_image((data_dir() / "scene.png").string());
  for (const char* angle : {"0", "360", "-360"}) {
    SCOPED_TRACE(angle);
    const RunResult r = run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--rotate", angle, tmp.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_TRUE(same_samples(in, read_image(tmp.file("out.png"))));
  }
  ASSERT_EQ(run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--rotate", "-90", tmp.file("a.png")}).status, 0);
  ASSERT_EQ(run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--rotate", "270", tmp.file("b.png")}).status, 0);
  const Image turned = read_image(tmp.file("a.png"));
  EXPECT_EQ(turned.width, 200);
  EXPECT_EQ(turned.height, 320);
  EXPECT_TRUE(same_samples(read_image(tmp.file("b.png")), turned));
}

// --linear's B, like --levels' points, as a percentage: -10% is -0.1, and
// the image changes (an offset of 0 would leave it).
TEST(CliStages, LinearTakesItsOffsetAsAPercentage) {
  TempDir tmp;
  const std::string scene = (data_dir() / "scene.png").string();
  for (const auto& [b, file] : {std::pair{"-10%", "percent.png"}, {"-0.1", "fraction.png"}}) {
    const RunResult r = run_binary({scene, "--device", "cpu", "--linear", std::string("1.2,") + b, tmp.file(file)});
    ASSERT_EQ(r.status, 0) << r.err;
  }
  const Image percent = read_image(tmp.file("percent.png"));
  EXPECT_TRUE(same_samples(percent, read_image(tmp.file("fraction.png"))));
  EXPECT_FALSE(same_samples(percent, read_image(scene)));
}

// ImageMagick's '<' and per-side percentages from the command line: a
// mark that leaves the image as it is writes its samples.
TEST(CliStages, ResizeMarksAndPercentagesOfEachSide) {
  TempDir tmp;
  const std::string scene = (data_dir() / "scene.png").string();
  const Image in = read_image(scene);
  for (const auto& [size, width, height] : std::vector<std::tuple<std::string, int, int>>{
           {"400x400<", 400, 250}, {"300x300<", 320, 200}, {"100x100>", 100, 63}, {"400x400>", 320, 200},
           {"50%x25%", 160, 50}, {"100%x100%", 320, 200}}) {
    SCOPED_TRACE(size);
    const RunResult r = run_binary({scene, "-v", "--device", "cpu", "--resize", size, tmp.file("out.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string shape = std::to_string(width) + "x" + std::to_string(height);
    EXPECT_NE(r.err.find("stage 1: resize SIZE=" + shape + " FILTER=lanczos3"), std::string::npos) << r.err;
    const Image out = read_image(tmp.file("out.png"));
    EXPECT_EQ(out.width, width);
    EXPECT_EQ(out.height, height);
    if (width == in.width && height == in.height) {
      EXPECT_TRUE(same_samples(in, out));
    }
  }
}

// Pillow's filter names, in any case, are the filters whose definition is
// theirs; -v names the filter as gpuimg does.
TEST(CliStages, PillowsFilterNamesAreTheFilters) {
  TempDir tmp;
  for (const auto& [pillow, ours] : {std::pair<const char*, const char*>{"BICUBIC", "cubic"}, {"bilinear", "linear"},
                                     {"Lanczos", "lanczos3"}, {"NEAREST", "nearest"}}) {
    const RunResult a = run_binary({(data_dir() / "scene.png").string(), "-v", "--device", "cpu", "--resize",
                                    std::string("37%:") + pillow, tmp.file("a.png")});
    ASSERT_EQ(a.status, 0) << a.err;
    EXPECT_NE(a.err.find(std::string("FILTER=") + ours), std::string::npos) << a.err;
    const RunResult b = run_binary({(data_dir() / "scene.png").string(), "--device", "cpu", "--resize",
                                    std::string("37%:") + ours, tmp.file("b.png")});
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_TRUE(same_samples(read_image(tmp.file("a.png")), read_image(tmp.file("b.png")))) << pillow;
  }
}

// One batch, inputs of different shapes through a centred crop and a
// quarter turn: each output is what one run on its own gives.
TEST(CliStages, BatchOverInputsOfDifferentShapes) {
  TempDir tmp;
  const std::vector<std::string> names = {"scene.png", "gray.png", "rgba.png", "row.png", "tiny.png"};
  std::vector<std::string> args;
  for (const std::string& n : names) args.push_back((data_dir() / n).string());
  for (const char* w : {"--crop", "40x30", "--rotate", "270", "--resize", "75%:linear"}) args.push_back(w);
  args.push_back((tmp / "batch").string() + "/");
  const RunResult batch = run_binary(args);
  ASSERT_EQ(batch.status, 0) << batch.err;
  for (const std::string& n : names) {
    SCOPED_TRACE(n);
    const RunResult one = run_binary({(data_dir() / n).string(), "--device", "cpu", "--crop", "40x30", "--rotate",
                                      "270", "--resize", "75%:linear", (tmp / ("one-" + n)).string()});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_TRUE(same_samples(read_image((tmp / ("one-" + n)).string()), read_image((tmp / "batch" / n).string())));
  }
}

}  // namespace
}  // namespace gpuimg::test
