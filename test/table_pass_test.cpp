// Table stages (kernels/tables.hpp): the planner fuses each run of them
// into one pass, and the pass gives the bytes of its stages run one by one,
// on images whose channels span narrow, different ranges (where
// --normalize has work to do) and the full range, every depth and channel
// count.
#include <gtest/gtest.h>

#include <set>

#include "backend.hpp"
#include "image_compare.hpp"
#include "op_cases.hpp"
#include "plan.hpp"
#include "random_image.hpp"
#include "table_chains.hpp"
#include "table_pass.hpp"

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

// What lets a range-reading stage fuse: every table op is monotone, and
// its entries stay samples, for every parameter value the matrix takes.
TEST(TablePass, EveryTableOpIsMonotoneAndStaysInRange) {
  std::set<OpId> checked;
  for (const OpCase& c : op_cases())
    visit_op(c.record.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      if constexpr (Op::kind == Kind::table)
        for (std::int32_t max : {255, 65535})
          for (const TableContext t : {TableContext{max, 0, max}, TableContext{max, max / 3, max / 2},
                                       TableContext{max, 7, 7}}) {
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
