// --map as a stage (kernels/ops/map.hpp): an expression of v alone is a
// table stage and fuses like one; one expression a channel gives tables per
// channel; tables that are not monotone keep a range reader in a pass of
// its own and stay out of the median's pass; every fused run gives the bytes
// of its stages run one by one.
#include <gtest/gtest.h>

#include <random>

#include "backend.hpp"
#include "error.hpp"
#include "expr/compile.hpp"
#include "expr/row_eval.hpp"
#include "expr_reference.hpp"
#include "image_compare.hpp"
#include "plan.hpp"
#include "random_image.hpp"
#include "run_one.hpp"
#include "table_chains.hpp"
#include "table_pass.hpp"

namespace gpuimg::test {
namespace {

using Words = std::vector<std::vector<std::string>>;

std::vector<int> spans(const Words& words, PlanFor backend = PlanFor::cpu, Shape shape = Shape{40, 30, 3, 1}) {
  std::vector<int> out;
  for (const OpRecord& rec : plan_pipeline(stages(words), shape, UINT64_MAX, "the image", backend))
    out.push_back(rec.span);
  return out;
}

TEST(MapOp, AnExpressionOfVAloneIsATableStage) {
  EXPECT_TRUE(is_table_stage(parse_stage("map", {"1-v"})));
  EXPECT_TRUE(is_table_stage(parse_stage("map", {"0.5"})));
  EXPECT_TRUE(is_table_stage(parse_stage("map", {"v;1-v;v*v"})));
  for (const char* reads : {"x/w", "v*y", "r", "g", "b", "a", "c/3", "h/100"})
    EXPECT_FALSE(is_table_stage(parse_stage("map", {reads}))) << reads;
  EXPECT_EQ(spans({{"map", "1-v"}, {"invert"}, {"gamma", "2"}}), (std::vector<int>{3, 0, 0}));
  EXPECT_EQ(spans({{"invert"}, {"map", "x/w"}, {"invert"}}), (std::vector<int>{1, 1, 1}));
  const Pipeline planned = plan_pipeline(stages({{"gamma", "2"}, {"map", "v;1-v;v*v"}}), Shape{9, 9, 4, 1});
  EXPECT_TRUE(pass_per_channel(planned, 0));
  EXPECT_EQ(stage_data(planned, 0).size(), 1u + 3 * 256) << "one table for each colour channel";
}

TEST(MapOp, GpuPlanRunsTablesInTheMapsPassAndKeepsFoldingTablesFromTheMedian) {
  EXPECT_EQ(spans({{"invert"}, {"map", "v*x/w"}, {"gamma", "2"}}, PlanFor::cuda), (std::vector<int>{3, 0, 0}));
  EXPECT_EQ(spans({{"invert"}, {"map", "v*x/w"}, {"gamma", "2"}}, PlanFor::cuda, Shape{40, 30, 3, 2}),
            (std::vector<int>{1, 1, 1}))
      << "16-bit tables are looked up in a pass of their own";
  EXPECT_EQ(spans({{"map", "4*v*(1-v)"}, {"blur", "2"}}, PlanFor::cuda), (std::vector<int>{2, 0}))
      << "a blur averages looked-up samples: any table will do";
  EXPECT_EQ(spans({{"map", "4*v*(1-v)"}, {"median", "2"}, {"map", "4*v*(1-v)"}}, PlanFor::cuda),
            (std::vector<int>{1, 1, 1}))
      << "the median selects before it looks up: only monotone tables";
  EXPECT_EQ(spans({{"map", "1-v"}, {"median", "2"}}, PlanFor::cuda), (std::vector<int>{1, 1}))
      << "an expression is taken as not monotone, whatever it is";
  EXPECT_EQ(spans({{"map", "v;1-v;v"}, {"blur", "2"}}, PlanFor::cuda), (std::vector<int>{1, 1}))
      << "a fused pass's tables are shared by the channels";
}

TEST(MapOp, ARangeReaderAfterAFoldingTableLeadsItsOwnPass) {
  EXPECT_EQ(spans({{"map", "4*v*(1-v)"}, {"normalize"}, {"invert"}}), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(spans({{"invert"}, {"normalize"}, {"map", "4*v*(1-v)"}, {"gamma", "2"}}), (std::vector<int>{4, 0, 0, 0}));
  EXPECT_EQ(spans({{"gamma", "2"}, {"map", "1-v"}, {"invert"}, {"normalize"}}), (std::vector<int>{3, 0, 0, 1}));
}

// Samples at the ends of the range only: a table that folds (4v(1-v)) maps
// both to 0, where its entries over the whole range reach the top.
Image ends_only(Image img) {
  const int hi = max_sample(img.depth);
  for (std::size_t i = 0; i < img.pixel_count() * img.channels; ++i) {
    const int v = sample(img, i) % 2 ? hi : 0;
    if (img.depth == Depth::U8)
      img.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
    else
      img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
  }
  return img;
}

TEST(MapOp, FusedRunsEqualTheirStagesOneByOne) {
  const std::vector<Words> chains = {
      {{"map", "4*v*(1-v)"}, {"normalize"}, {"invert"}},
      {{"map", "v;1-v;v*v"}, {"gamma", "2"}, {"normalize"}, {"map", "sin(v*pi*3)*0.5+0.5"}},
      {{"normalize"}, {"map", "v^3"}, {"levels", "10%,90%"}, {"map", "v<0.3?0:v"}},
      {{"map", "x/w"}, {"map", "v*0.5"}, {"normalize"}},
  };
  for (const Words& chain : chains)
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels : {3, 4})
        for (int kind = 0; kind < 3; ++kind) {
          Image in = random_image(37, 23, channels, d, 5 + channels);
          if (kind == 1) in = narrow_ranges(in);
          if (kind == 2) in = ends_only(in);
          const Pipeline pipeline = stages(chain);
          SCOPED_TRACE(describe(pipeline.front()) + "... on " + shape(in) + " kind " + std::to_string(kind));
          Image fused = in;
          run_cpu(fused, pipeline);
          Image stepwise = in;
          for (const OpRecord& rec : pipeline) stepwise = run_one(stepwise, rec);
          EXPECT_TRUE(same_samples(stepwise, fused));
        }
}

// A table stage (an expression of v alone) gives the bytes of the row
// evaluator run over the image, which test/expr_map_image_test.cpp holds to
// a plain loop: at both depths, with one expression or one a channel.
TEST(MapOp, ATableGivesTheRowEvaluatorsBytes) {
  std::mt19937 rng(65536);
  expr_ref::Printer printer(rng);
  for (int t = 0; t < 32; ++t) {
    const Depth depth = t % 2 ? Depth::U16 : Depth::U8;
    const int channels = 1 + t / 2 % 4;
    const int expressions = channels >= 3 && t % 3 == 0 ? 3 : 1;
    std::string text;
    for (int i = 0; i < expressions; ++i)
      text += (i ? ";" : "") + printer.text(expr_ref::random_tree(rng, 1 + t % 6, expr_ref::Leaves::v_and_numbers));
    SCOPED_TRACE(text);
    const OpRecord stage = parse_stage("map", {text});
    ASSERT_TRUE(is_table_stage(stage));
    Image table = random_image(37, 5, channels, depth, static_cast<std::uint32_t>(t)), rows = table;
    run_cpu(table, {stage});
    const Shape shape{rows.width, rows.height, rows.channels, bytes_per_sample(rows.depth)};
    const std::vector<std::uint8_t> in = rows.data;
    expr::map_image(expr::compile_map(text), in.data(), rows.data.data(), shape, 1);
    EXPECT_TRUE(same_samples(table, rows));
  }
}

TEST(MapOp, OneExpressionAChannel) {
  for (Depth d : {Depth::U8, Depth::U16}) {
    const Image in = random_image(19, 7, 4, d, 3);
    const Image out = run_one(in, parse_stage("map", {"v;1-v;0.5+x*0"}));
    const int hi = max_sample(d);
    for (std::size_t p = 0; p < in.pixel_count(); ++p) {
      ASSERT_EQ(sample(out, 4 * p), sample(in, 4 * p));
      ASSERT_EQ(sample(out, 4 * p + 1), hi - sample(in, 4 * p + 1));
      ASSERT_EQ(sample(out, 4 * p + 2), (hi + 1) / 2) << "floor(max * 0.5 + 0.5)";
      ASSERT_EQ(sample(out, 4 * p + 3), sample(in, 4 * p + 3)) << "alpha kept";
    }
  }
}

TEST(MapOp, ExpressionsForMoreChannelsThanTheImageHasAreRefusedWhenPlanned) {
  for (int channels : {1, 2}) {
    try {
      plan_pipeline({parse_stage("map", {"v;v;v"})}, Shape{5, 5, channels, 1}, UINT64_MAX, "in.png");
      ADD_FAILURE() << "planned for " << channels << " channels";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "in.png: stage 1 (map EXPR=v;v;v): EXPR gives 3 expressions, one for each colour channel, "
                                       "but the image has 1 colour channel");
    }
  }
  EXPECT_NO_THROW(plan_pipeline({parse_stage("map", {"v;v;v"})}, Shape{5, 5, 4, 1}));
}

// No image has 2 or 4 colour channels: such lists are refused as written.
TEST(MapOp, TwoOrFourExpressionsAreRefusedAsWritten) {
  for (const char* text : {"v;x", "v;v;v;v"}) {
    try {
      parse_stage("map", {text});
      ADD_FAILURE() << text << " was taken";
    } catch (const UsageError& e) {
      EXPECT_EQ(std::string(e.what()), "--map: EXPR must give one expression, or three between ';' (one for each colour channel)");
    }
  }
}

}  // namespace
}  // namespace gpuimg::test
