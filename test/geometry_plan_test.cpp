// The shapes that the geometry stages plan from their values and the
// input's sides (--rotate, --resize's marks and percentages, --crop's
// percentages), for inputs of several shapes, and that a stage whose
// values ask for no change leaves the bytes as they were.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backend.hpp"
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

}  // namespace
}  // namespace gpuimg::test
