// Table stages (kernels/tables.hpp): the planner fuses each run of them
// into one pass, and the pass gives the bytes of its stages run one by one,
// on images whose channels span narrow, different ranges (where
// --normalize has work to do) and the full range, every depth and channel
// count.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "backend.hpp"
#include "image_compare.hpp"
#include "op_cases.hpp"
#include "plan.hpp"
#include "random_image.hpp"
#include "table_chains.hpp"
#include "table_pass.hpp"
#include "tables.hpp"

namespace gpuimg::test {
namespace {

TEST(TablePass, FusedChainEqualsItsStagesOneByOne) {
  for (const auto& chain : table_chains())
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (bool narrow : {false, true}) {
          const Pipeline pipeline = stages(chain);
          Image in = random_image(37, 23, channels, d, 11 + channels);
          if (narrow) in = narrow_ranges(in);
          SCOPED_TRACE(describe(pipeline.front()) + "... on " + shape(in) + (narrow ? " narrow" : ""));
          Image fused = in;
          run_cpu(fused, pipeline);
          Image stepwise = in;
          for (const OpRecord& rec : pipeline) run_cpu(stepwise, {rec});
          EXPECT_TRUE(same_samples(stepwise, fused));
        }
}

// A 16-bit pass of one table (shared, or an image with one colour
// channel) carries that table again as 16-bit entries, flagged, for the
// GPU's bulk copy; 8-bit passes and those with a table a channel do not.
TEST(TablePass, OneSixteenBitTableCarriesItsEntriesPacked) {
  for (const auto& chain : table_chains())
    for (int bytes : {1, 2})
      for (int channels = 1; channels <= 4; ++channels) {
        const std::vector<ChannelRange> range(3, bytes == 1 ? ChannelRange{3, 200} : ChannelRange{300, 60000});
        const Pipeline planned = plan_pipeline(stages(chain), Shape{37, 23, channels, bytes});
        SCOPED_TRACE(describe(planned.front()) + "... at " + std::to_string(bytes) + " bytes, " +
                     std::to_string(channels) + " channels");
        const std::vector<std::int32_t> data = pass_tables(planned, 0, range);
        EXPECT_EQ(data.size(), pass_table_entries(planned, 0));
        const TableData tables{data.data(), bytes == 1 ? 255 : 65535};
        const bool one = bytes == 2 && (!pass_per_channel(planned, 0) || colour_channels(planned.front().in) == 1);
        ASSERT_EQ(tables.has_packed16(), one);
        if (!one) continue;
        std::vector<std::uint16_t> packed(65536);
        std::memcpy(packed.data(), data.data() + kPacked16At, packed.size() * sizeof(std::uint16_t));
        for (int v = 0; v <= 65535; ++v) ASSERT_EQ(packed[v], tables.table(0)[v]) << "entry " << v;
      }
}

TEST(TablePass, PlannerFusesEachRunOfTableStages) {
  const Pipeline planned = plan_pipeline(stages({{"invert"}, {"gamma", "2"}, {"blur", "1"}, {"normalize"},
                                                 {"resize", "50%"}, {"levels", "0,0.5"}, {"threshold", "0.5"},
                                                 {"invert"}}),
                                         Shape{40, 30, 3, 1});
  std::vector<int> spans;
  for (const OpRecord& rec : planned) spans.push_back(rec.span);
  EXPECT_EQ(spans, (std::vector<int>{2, 0, 1, 1, 1, 3, 0, 0}));
  EXPECT_TRUE(stage_data(planned, 1).empty()) << "a stage inside a pass has no data of its own";
  EXPECT_EQ(stage_data(planned, 5).size(), 1u + 256) << "one table that the colour channels share";
  EXPECT_EQ(pass_table_entries(planned, 3), 1u + 3 * 256) << "normalize: a table per colour channel";
}

std::vector<int> spans_of(const Pipeline& planned) {
  std::vector<int> spans;
  for (const OpRecord& rec : planned) spans.push_back(rec.span);
  return spans;
}

Pipeline plan_for_cuda(const std::vector<std::vector<std::string>>& words, Shape shape = Shape{40, 30, 3, 1}) {
  return plan_pipeline(stages(words), shape, UINT64_MAX, "the image", PlanFor::cuda);
}

// On the GPU the runs before and after a blur the one-pass paths take run
// in its load and store; each run's tables stay with its first stage, the
// blur's data with the blur.
TEST(TablePass, GpuPlanRunsTablesInTheBlursPass) {
  const std::vector<std::vector<std::string>> issue = {
      {"levels", "5%,95%"}, {"gamma", "1.8"}, {"blur", "3"}, {"invert"}};
  EXPECT_EQ(spans_of(plan_pipeline(stages(issue), Shape{40, 30, 3, 1})), (std::vector<int>{2, 0, 1, 1}))
      << "the CPU's plan keeps its lookups";
  const Pipeline planned = plan_for_cuda(issue);
  EXPECT_EQ(spans_of(planned), (std::vector<int>{4, 0, 0, 0}));
  const PassParts parts = pass_parts(planned, 0);
  EXPECT_EQ(parts.core, 2u);
  EXPECT_EQ(parts.end, 4u);
  EXPECT_EQ(stage_data(planned, 0).size(), 1u + 256);
  EXPECT_TRUE(stage_data(planned, 1).empty());
  EXPECT_TRUE(stage_data(planned, 2).empty()) << "the blur has no data of its own";
  EXPECT_EQ(stage_data(planned, 3).front(), kTableComplement);

  EXPECT_EQ(spans_of(plan_for_cuda({{"blur", "3"}, {"invert"}, {"gamma", "2"}, {"blur", "2"}, {"levels", "0,0.5"}})),
            (std::vector<int>{3, 0, 0, 2, 0}))
      << "a run between two blurs goes with the first";
  EXPECT_EQ(spans_of(plan_for_cuda({{"normalize"}, {"blur", "3"}, {"invert"}, {"normalize"}})),
            (std::vector<int>{1, 1, 2, 0}))
      << "a run that reads its range stays on its own";
  EXPECT_EQ(spans_of(plan_for_cuda({{"invert"}, {"blur", std::to_string(Blur::kMaxFusedRadius + 1)}, {"invert"}})),
            (std::vector<int>{1, 1, 1}))
      << "past the one-pass radii the blur takes no tables";
  EXPECT_EQ(spans_of(plan_for_cuda({{"gamma", "2"}, {"gaussian", "4"}, {"invert"}, {"gaussian", "4.1"}})),
            (std::vector<int>{3, 0, 0, 1}))
      << "the Gaussian's one pass (r <= 12) takes tables, its two passes not";
  EXPECT_EQ(spans_of(plan_for_cuda({{"invert"}, {"median", "3"}, {"gamma", "2"}, {"median", "4"}, {"invert"}})),
            (std::vector<int>{3, 0, 0, 1, 1}))
      << "the median's networks (R <= 3) take tables, its other paths not";
  EXPECT_EQ(spans_of(plan_for_cuda({{"invert"}, {"sharpen", "1"}, {"invert"}})), (std::vector<int>{1, 1, 1}));
  // Rows of whole words (40 RGB pixels: 120 bytes) take the word rows
  // paths of --gaussian up to r = 9 and --median 1, which take no tables;
  // rows of 123 bytes take the one pass and the networks, which do.
  for (const auto& op : {std::vector<std::string>{"gaussian", "1"}, {"gaussian", "3"}, {"median", "1"}}) {
    EXPECT_EQ(spans_of(plan_for_cuda({{"gamma", "2"}, op, {"invert"}})), (std::vector<int>{1, 1, 1}))
        << op[0] << " " << op[1] << " on rows of whole words";
    EXPECT_EQ(spans_of(plan_for_cuda({{"gamma", "2"}, op, {"invert"}}, Shape{41, 30, 3, 1})),
              (std::vector<int>{3, 0, 0}))
        << op[0] << " " << op[1] << " on rows of 123 bytes";
  }
  EXPECT_EQ(spans_of(plan_for_cuda({{"gamma", "2"}, {"gaussian", "3.0001"}, {"invert"}})), (std::vector<int>{3, 0, 0}))
      << "r = 10, past the word rows path, takes the one pass and its tables";
  for (const char* op : {"blur", "gaussian", "median"})
    EXPECT_EQ(spans_of(plan_for_cuda({{"invert"}, {op, "1"}, {"invert"}}, Shape{40, 30, 3, 2})),
              (std::vector<int>{1, 1, 1}))
        << op << ": 16-bit tables are looked up in a pass of their own";
  EXPECT_EQ(pass_parts(plan_for_cuda({{"blur", "1"}}), 0).core, 0u);
  const PassParts lookup = pass_parts(plan_for_cuda({{"invert"}, {"gamma", "2"}}), 0);
  EXPECT_EQ(lookup.core, lookup.end) << "a pass of tables alone";
}

// What lets a range-reading stage fuse: every table op is monotone, and
// its entries stay samples, for every parameter value the matrix takes.
TEST(TablePass, EveryTableOpIsMonotoneAndStaysInRange) {
  std::set<OpId> checked;
  for (const OpCase& c : op_cases())
    visit_op(c.record.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      if constexpr (Op::kind == Kind::table)
        for (std::int32_t max : {255, 65535})
          for (const TableContext t : {TableContext{max, 0, max, 0}, TableContext{max, max / 3, max / 2, 0},
                                       TableContext{max, 7, 7, 0}}) {
            SCOPED_TRACE(c.name + " max " + std::to_string(max));
            int rising = 0, falling = 0;
            std::int32_t last = Op::map(c.record.get<Op>(), 0, t);
            for (std::int32_t v = 0; v <= max; ++v) {
              const std::int32_t m = Op::map(c.record.get<Op>(), v, t);
              ASSERT_GE(m, 0);
              ASSERT_LE(m, max);
              rising += m > last;
              falling += m < last;
              last = m;
            }
            EXPECT_TRUE(rising == 0 || falling == 0);
            checked.insert(c.record.id);
          }
    });
  EXPECT_EQ(checked.size(), 6u) << "invert, levels, gamma, linear, threshold, normalize";
}

}  // namespace
}  // namespace gpuimg::test
