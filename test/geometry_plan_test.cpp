// The shapes that the geometry stages plan from their values and the
// input's sides (--rotate, --resize's marks and percentages, --crop's
// percentages), for inputs of several shapes, and that a stage whose
// values ask for no change leaves the bytes as they were.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "backend.hpp"
#include "error.hpp"
#include "image_compare.hpp"
#include "plan.hpp"
#include "random_image.hpp"

namespace gpuimg::test {
namespace {

// "WxH": the output's sides after one stage `op VALUE` on a WxH RGB image.
std::string planned(const std::string& op, const std::string& value, int width, int height) {
  const Shape in{width, height, 3, 1};
  const Shape out = planned_output(plan_pipeline({parse_stage(op, {value})}, in), in);
  return std::to_string(out.width) + "x" + std::to_string(out.height);
}

Image run(const Image& in, const std::string& op, const std::string& value) {
  Image out = in;
  run_cpu(out, {parse_stage(op, {value})});
  return out;
}

TEST(GeometryPlan, RotateTurnsByEveryMultipleOf90) {
  for (const auto& [width, height] : std::vector<std::pair<int, int>>{{1, 1}, {7, 3}, {3, 7}, {64, 8}}) {
    const std::string same = std::to_string(width) + "x" + std::to_string(height);
    const std::string swapped = std::to_string(height) + "x" + std::to_string(width);
    for (const char* angle : {"0", "180", "360", "-180", "-360", "+0", "-0"})
      EXPECT_EQ(planned("rotate", angle, width, height), same) << angle;
    for (const char* angle : {"90", "270", "-90", "-270"}) EXPECT_EQ(planned("rotate", angle, width, height), swapped) << angle;
  }
}

TEST(GeometryPlan, RotateByNoTurnIsACopyAndNegativeAnglesTurnBack) {
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const int channels : {1, 2, 3, 4}) {
      SCOPED_TRACE(std::to_string(channels) + " channels, " + (depth == Depth::U8 ? "8" : "16") + "-bit");
      const Image in = random_image(37, 5, channels, depth, 20240611);
      for (const char* angle : {"0", "360", "-360"}) EXPECT_TRUE(same_samples(in, run(in, "rotate", angle))) << angle;
      EXPECT_TRUE(same_samples(run(in, "rotate", "270"), run(in, "rotate", "-90")));
      EXPECT_TRUE(same_samples(run(in, "rotate", "180"), run(in, "rotate", "-180")));
      EXPECT_TRUE(same_samples(run(in, "rotate", "90"), run(in, "rotate", "-270")));
      EXPECT_FALSE(same_samples(in, run(in, "rotate", "180")));  // the copies above are no accident of the image
    }
}

struct Planned {
  const char* value;
  int in_width, in_height;
  const char* out;
};

void expect_plans(const char* op, const std::vector<Planned>& cases) {
  for (const Planned& c : cases)
    EXPECT_EQ(planned(op, c.value, c.in_width, c.in_height), c.out)
        << "--" << op << " " << c.value << " on " << c.in_width << "x" << c.in_height;
}

// '>' shrinks an image larger than the box in either side to fit inside
// it, the side of the smaller scale taking the box's and the other
// floor(v + 0.5), at least 1; any other image keeps its size.
TEST(GeometryPlan, ResizeGreaterThanOnlyShrinks) {
  expect_plans("resize", {{"100x100>", 320, 200, "100x63"},
                          {"100x100>", 101, 100, "100x99"},
                          {"100x100>", 80, 300, "27x100"},
                          {"100x100>", 1, 1000, "1x100"},
                          {"100x100>", 50, 80, "50x80"},
                          {"100x100>", 100, 100, "100x100"},
                          {"100x100>", 100, 7, "100x7"},
                          {"200x50>", 300, 40, "200x27"},
                          {"200x50>", 150, 60, "125x50"}});
}

// '<' enlarges an image that lies inside the box (no side larger than the
// box's) to fit it, by the same rule; an image larger in either side, even
// smaller in the other, keeps its size.
TEST(GeometryPlan, ResizeLessThanOnlyEnlarges) {
  expect_plans("resize", {{"100x100<", 50, 80, "63x100"},
                          {"100x100<", 40, 20, "100x50"},
                          {"100x100<", 3, 1, "100x33"},
                          {"100x100<", 1, 1, "100x100"},
                          {"100x100<", 100, 7, "100x7"},
                          {"100x100<", 100, 100, "100x100"},
                          {"100x100<", 320, 200, "320x200"},
                          {"100x100<", 101, 10, "101x10"},
                          {"100x100<", 10, 101, "10x101"},
                          {"200x50<", 30, 20, "75x50"},
                          {"200x50<", 150, 2, "200x3"}});
}

// A percentage of each side, floor(v + 0.5), at least 1; N% is N%xN%.
TEST(GeometryPlan, ResizePercentagesOfEachSide) {
  expect_plans("resize", {{"50%x25%", 320, 200, "160x50"},
                          {"50%x25%", 7, 3, "4x1"},
                          {"50%x25%", 1, 1, "1x1"},
                          {"100%x200%", 7, 3, "7x6"},
                          {"12.5%x150%", 320, 200, "40x300"},
                          {"300%x1%", 5, 1000, "15x10"},
                          {"50%x50%", 7, 3, "4x2"},
                          {"50%", 7, 3, "4x2"}});
}

// The plain forms keep their meaning beside the new ones.
TEST(GeometryPlan, ResizeExactAndOneSidedFormsAreUnchanged) {
  expect_plans("resize", {{"100x100", 320, 200, "100x100"},
                          {"100x", 320, 200, "100x63"},
                          {"x100", 320, 200, "160x100"},
                          {"100x100!", 7, 3, "100x100"},
                          {"100x100^", 320, 200, "160x100"}});
}

// A size the marks or percentages leave as it is: the input's bytes, alpha
// and the colour under it included (no premultiplying round trip).
TEST(GeometryPlan, ResizeThatKeepsTheSizeIsACopy) {
  for (const Depth depth : {Depth::U8, Depth::U16})
    for (const int channels : {1, 2, 3, 4}) {
      SCOPED_TRACE(std::to_string(channels) + " channels, " + (depth == Depth::U8 ? "8" : "16") + "-bit");
      const Image in = random_image(50, 80, channels, depth, 7);
      for (const char* size : {"100x100>", "50x80>", "50x80<", "40x100<", "100x40<", "100%x100%", "100%",
                               "100x100>:nearest", "20x20<:box", "100%x100%:linear"})
        EXPECT_TRUE(same_samples(in, run(in, "resize", size))) << size;
      const Image grown = run(in, "resize", "100x100<");
      EXPECT_EQ(grown.width, 63);
      EXPECT_EQ(grown.height, 100);
    }
}

// The planned record, as -v prints it: the region in pixels, offsets set.
std::string planned_region(const std::string& value, int width, int height) {
  return describe(plan_pipeline({parse_stage("crop", {value})}, Shape{width, height, 3, 1}).front());
}

// Percentages of each side, floor(v + 0.5), at least 1, then as WxH: centred
// without offsets, placed by them (in pixels) with, cut to the image.
TEST(GeometryPlan, CropPercentagesOfEachSide) {
  for (const auto& [value, width, height, region] : std::vector<std::tuple<const char*, int, int, const char*>>{
           {"50%x50%", 320, 200, "160x100+80+50"},
           {"50%", 320, 200, "160x100+80+50"},
           {"50%", 7, 3, "4x2+1+0"},
           {"33.3%x10%", 10, 10, "3x1+3+4"},
           {"1%x1%", 10, 10, "1x1+4+4"},
           {"25%x75%", 1, 1, "1x1+0+0"},
           {"100%", 7, 3, "7x3+0+0"},
           {"100%x50%", 7, 3, "7x2+0+0"},
           {"50%x50%+10+20", 320, 200, "160x100+10+20"},
           {"50%x50%+200+150", 320, 200, "120x50+200+150"},
           {"50%x50%-100-10", 320, 200, "60x90+0+0"},
           {"160x100", 320, 200, "160x100+80+50"}})
    EXPECT_EQ(planned_region(value, width, height), std::string("crop GEOMETRY=") + region)
        << value << " on " << width << "x" << height;
  EXPECT_THROW(planned_region("50%x50%+400+0", 320, 200), InputError);
}

TEST(GeometryPlan, CropByPercentagesTakesThePixelsOfItsRegion) {
  for (const Depth depth : {Depth::U8, Depth::U16}) {
    const Image in = random_image(37, 5, 4, depth, 11);
    EXPECT_TRUE(same_samples(in, run(in, "crop", "100%")));
    EXPECT_TRUE(same_samples(in, run(in, "crop", "100%x100%+0+0")));
    // 37 x 0.5 = 18.5 rounds to 19, 5 x 0.5 = 2.5 to 3: offsets 9 and 1.
    EXPECT_TRUE(same_samples(run(in, "crop", "19x3+9+1"), run(in, "crop", "50%")));
    EXPECT_TRUE(same_samples(run(in, "crop", "19x3+2-1"), run(in, "crop", "50%+2-1")));
  }
}

}  // namespace
}  // namespace gpuimg::test
