// The cost model behind --device auto: its estimate grows with the image and
// the pipeline, follows each op's declared CpuCost, and the choice turns at
// kCudaStartExitMs. Pure functions: no image is run, no GPU is needed.
#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

#include "device_choice.hpp"
#include "plan.hpp"
#include "op_cases.hpp"

namespace gpuimg {
namespace {

ImageShape shape(std::uint64_t w, std::uint64_t h, int channels = 3, Depth depth = Depth::U8) {
  return {w, h, channels, depth};
}

// One stage of every registered op, with the test matrix's parameters.
std::vector<OpRecord> every_stage() {
  std::vector<OpRecord> out;
  for (const test::OpCase& c : test::op_cases()) out.push_back(c.record);
  return out;
}

TEST(CpuCost, EveryOpDeclaresAPositiveCostAtBothDepths) {
  for (const OpRecord& rec : every_stage())
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      EXPECT_GT(Op::cpu_cost(rec.get<Op>()).ns_per_sample_8bit, 0) << describe(rec);
      EXPECT_GT(Op::cpu_cost(rec.get<Op>()).ns_per_sample_16bit, 0) << describe(rec);
    });
}

// The samples a stage reads or writes, whichever are more, from its plan
// for a w x h input of c channels.
double stage_samples(const OpRecord& rec, int w, int h, int c) {
  const OpRecord planned = plan_pipeline({rec}, Shape{w, h, c, 1}).front();
  return std::max(double(planned.in.pixels()) * planned.in.channels, double(planned.out.pixels()) * planned.out.channels);
}

// The documented sum, worked by hand for one stage of each op.
TEST(EstimateCpuMs, IsTheOpsCostTimesTheSamplesOverTheThreads) {
  for (const OpRecord& rec : every_stage()) {
    SCOPED_TRACE(describe(rec));
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      EXPECT_DOUBLE_EQ(estimate_cpu_ms({rec}, shape(1000, 500, 3, Depth::U8), 1),
                       Op::cpu_cost(rec.get<Op>()).ns_per_sample_8bit * stage_samples(rec, 1000, 500, 3) / 1e6);
      EXPECT_DOUBLE_EQ(estimate_cpu_ms({rec}, shape(1000, 500, 2, Depth::U16), 2),
                       Op::cpu_cost(rec.get<Op>()).ns_per_sample_16bit * stage_samples(rec, 1000, 500, 2) / 2 / 1e6);
    });
  }
}

// For stages whose output grows with their input: a resize to a fixed
// size costs what its output costs until the input outgrows it.
TEST(EstimateCpuMs, GrowsWithWidthHeightAndChannels) {
  for (const OpRecord& rec : every_stage())
    for (const Depth depth : {Depth::U8, Depth::U16}) {
      if (rec.id == OpId::Resize) continue;
      SCOPED_TRACE(describe(rec) + (depth == Depth::U8 ? " 8-bit" : " 16-bit"));
      const Pipeline p = {rec};
      double last = 0;
      for (const std::uint64_t side : {1, 2, 37, 640, 1920, 3840, 7680, 16384}) {
        const double ms = estimate_cpu_ms(p, shape(side, side, 3, depth), 4);
        EXPECT_GT(ms, last) << side << "x" << side;
        EXPECT_LT(estimate_cpu_ms(p, shape(side, side + 1, 3, depth), 4), estimate_cpu_ms(p, shape(side + 1, side + 1, 3, depth), 4));
        last = ms;
      }
      for (int c = 1; c < 4; ++c)
        EXPECT_LT(estimate_cpu_ms(p, shape(640, 480, c, depth), 4), estimate_cpu_ms(p, shape(640, 480, c + 1, depth), 4));
    }
}

TEST(EstimateCpuMs, GrowsWithEveryStageAdded) {
  Pipeline p;
  double last = estimate_cpu_ms(p, shape(1920, 1080), 4);
  EXPECT_EQ(last, 0);
  for (int round = 0; round < 3; ++round)
    for (const OpRecord& rec : every_stage()) {
      p.push_back(rec);
      const double ms = estimate_cpu_ms(p, shape(1920, 1080), 4);
      EXPECT_GT(ms, last) << p.size() << " stages, the last " << describe(rec);
      last = ms;
    }
}

// More threads never make it slower; past kCpuScalingThreads they count no
// more, since memory bandwidth bounds the stages.
TEST(EstimateCpuMs, FallsWithThreadsUpToTheScalingLimit) {
  const Pipeline p = every_stage();
  double last = estimate_cpu_ms(p, shape(3840, 2160), 1);
  for (int threads = 2; threads <= kCpuScalingThreads; ++threads) {
    const double ms = estimate_cpu_ms(p, shape(3840, 2160), threads);
    EXPECT_LT(ms, last) << threads << " threads";
    last = ms;
  }
  EXPECT_EQ(estimate_cpu_ms(p, shape(3840, 2160), 4 * kCpuScalingThreads), last);
  EXPECT_EQ(estimate_cpu_ms(p, shape(3840, 2160), 0), estimate_cpu_ms(p, shape(3840, 2160), 1));
}

TEST(ChooseAutoDevice, OnePixelRunsOnTheCpuWhateverThePipeline) {
  Pipeline p;
  for (int i = 0; i < 100; ++i)
    for (const OpRecord& rec : every_stage()) p.push_back(rec);
  for (const int threads : {1, 16}) {
    const AutoDevice d = choose_auto_device(p, shape(1, 1, 4, Depth::U16), threads);
    EXPECT_FALSE(d.start_cuda);
    EXPECT_EQ(d.reason.rfind("auto: the pipeline is estimated at ", 0), 0u) << d.reason;
    EXPECT_NE(d.reason.find("CUDA was not started"), std::string::npos) << d.reason;
  }
}

TEST(ChooseAutoDevice, NoOperationRunsOnTheCpuAtAnySize) {
  EXPECT_FALSE(choose_auto_device({}, shape(1 << 16, 1 << 16, 4, Depth::U16), 1).start_cuda);
}

TEST(ChooseAutoDevice, AHeavyPipelineOnAn8KImageStartsCuda) {
  const Pipeline p(100, parse_stage("blur", {"3"}));
  for (const int threads : {1, 16, 128}) {
    const AutoDevice d = choose_auto_device(p, shape(7680, 4320, 3, Depth::U8), threads);
    EXPECT_TRUE(d.start_cuda) << threads << " threads: " << d.reason;
    EXPECT_NE(d.reason.find("over CUDA's start-up and exit"), std::string::npos) << d.reason;
  }
}

TEST(ChooseAutoDevice, AnUnknownShapeStartsCudaAsAlways) {
  const AutoDevice d = choose_auto_device({parse_stage("invert", {})}, std::nullopt, 16);
  EXPECT_TRUE(d.start_cuda);
  EXPECT_EQ(d.reason, "");
}

// Over a sweep of sizes the choice turns exactly where the estimate crosses
// kCudaStartExitMs, and the sweep reaches both sides.
TEST(ChooseAutoDevice, TurnsAtTheThreshold) {
  const Pipeline p = {parse_stage("blur", {"3"}), parse_stage("sharpen", {"1"}), parse_stage("invert", {})};
  bool cpu = false, cuda = false;
  for (std::uint64_t side = 64; side <= 65536; side += side / 8) {
    const ImageShape s = shape(side, side, 4, Depth::U16);
    const double ms = estimate_cpu_ms(p, s, 8);
    const AutoDevice d = choose_auto_device(p, s, 8);
    EXPECT_EQ(d.start_cuda, ms >= kCudaStartExitMs) << side << ": " << ms << " ms, " << d.reason;
    (d.start_cuda ? cuda : cpu) = true;
  }
  EXPECT_TRUE(cpu);
  EXPECT_TRUE(cuda);
}

}  // namespace
}  // namespace gpuimg
