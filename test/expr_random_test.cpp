// The compiler, scalar evaluator and row evaluator against the test's own
// tree-walking reference (support/expr_reference.hpp) on thousands of
// seeded random expressions, printed as a person might type them, at edge
// values: bit equality, any NaN taken as equal to any other.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "expr/compile.hpp"
#include "expr/evaluate.hpp"
#include "expr/row_eval.hpp"
#include "expr/vocabulary.hpp"
#include "expr_math.hpp"
#include "expr_reference.hpp"

namespace gpuimg::test {
namespace {

using namespace expr_ref;
using expr::compile_map;
using expr::Program;

// Values a name may hold when evaluate() is called directly: samples' 0 and
// 1, and what no sample gives (NaN, infinities, -0, huge, subnormal).
double random_value(std::mt19937& rng) {
  static const double kEdges[] = {0, 1, -0.0, 0.5, -1, 2, 1e-300, 1e300, 4.9e-324, 710, -710,
                                  std::numeric_limits<double>::quiet_NaN(), INFINITY, -INFINITY};
  const int i = std::uniform_int_distribution<int>(0, 19)(rng);
  if (i < 14) return kEdges[i];
  if (i < 17) return std::uniform_real_distribution<double>(0, 1)(rng);
  return std::uniform_int_distribution<int>(-5, 5000)(rng);
}

std::string bits(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

Program only_program(const std::string& text) {
  const std::vector<Program> programs = compile_map(text);
  EXPECT_EQ(programs.size(), 1u) << text;
  return programs.at(0);
}

// The random trees call every function of the language, and the
// reference knows each: a function added to the vocabulary alone fails here.
TEST(ExprRandom, TheReferenceHasEveryFunction) {
  std::string words;
  for (const Function& f : kFunctions) words += (words.empty() ? "" : " ") + std::string(f.word);
  EXPECT_EQ(words, expr::function_words());
}

TEST(ExprRandom, EvaluateMatchesTheReference) {
  std::mt19937 rng(20261126);
  Printer printer(rng);
  for (int t = 0; t < 4000; ++t) {
    const Node tree = random_tree(rng, 1 + t % 7);
    const std::string text = printer.text(tree);
    SCOPED_TRACE(text);
    const Program program = only_program(text);
    for (int s = 0; s < 8; ++s) {
      double names[expr::kNames];
      for (double& n : names) n = random_value(rng);
      const double want = eval(tree, names), got = expr::evaluate(program, names);
      ASSERT_TRUE(same(got, want)) << "got " << bits(got) << ", want " << bits(want) << " at v=" << names[0];
    }
  }
}

TEST(ExprRandom, RowEvaluatorMatchesTheReferenceOverAChunk) {
  std::mt19937 rng(7);
  Printer printer(rng);
  constexpr int kChunk = expr::RowEvaluator::kChunk;
  std::vector<double> values(expr::kNames * kChunk);
  for (int t = 0; t < 1500; ++t) {
    const Node tree = random_tree(rng, 1 + t % 7);
    const std::string text = printer.text(tree);
    SCOPED_TRACE(text);
    expr::RowEvaluator rows(only_program(text));
    // Full chunks, a single pixel, and lengths off every vector width.
    for (const int n : {kChunk, 1, 1 + t % kChunk}) {
      const double* names[expr::kNames];
      for (int k = 0; k < expr::kNames; ++k) {
        names[k] = &values[k * kChunk];
        for (int i = 0; i < n; ++i) values[k * kChunk + i] = random_value(rng);
      }
      const double* got = rows.run(names, n);
      for (int i = 0; i < n; ++i) {
        double at[expr::kNames];
        for (int k = 0; k < expr::kNames; ++k) at[k] = names[k][i];
        const double want = eval(tree, at);
        ASSERT_TRUE(same(got[i], want)) << "pixel " << i << " of " << n << ": got " << bits(got[i]) << ", want "
                                        << bits(want);
      }
    }
  }
}

TEST(ExprRandom, OneProgramPerSemicolonSeparatedExpression) {
  std::mt19937 rng(99);
  Printer printer(rng);
  for (int t = 0; t < 500; ++t) {
    std::vector<Node> trees(1 + t % 4);
    std::string text;
    for (std::size_t i = 0; i < trees.size(); ++i) {
      trees[i] = random_tree(rng, 1 + t % 5);
      text += (i ? (rng() % 2 ? " ; " : ";") : "") + printer.text(trees[i]);
    }
    SCOPED_TRACE(text);
    const std::vector<Program> programs = compile_map(text);
    ASSERT_EQ(programs.size(), trees.size());
    double names[expr::kNames];
    for (double& n : names) n = random_value(rng);
    for (std::size_t i = 0; i < trees.size(); ++i)
      ASSERT_TRUE(same(expr::evaluate(programs[i], names), eval(trees[i], names))) << "expression " << i;
  }
}

// Constant folding runs the same xm:: functions at compile time: an
// expression of numbers folds to one constant with the bits that the same
// expression over names holding those numbers computes when run.
TEST(ExprRandom, FoldedConstantsHaveTheBitsOfTheUnfoldedProgram) {
  std::mt19937 rng(4242);
  Printer printer(rng);
  for (int t = 0; t < 3000; ++t) {
    const Node over_names = random_tree(rng, 1 + t % 7, Leaves::variables);
    double names[expr::kNames];
    for (double& n : names) n = random_constant(rng);
    const std::string text = printer.text(over_names), numbers = printer.text(with_numbers(over_names, names));
    SCOPED_TRACE(text + "  |  " + numbers);
    const Program folded = only_program(numbers);
    ASSERT_EQ(folded.code.size(), 1u);
    ASSERT_EQ(folded.code[0].code, expr::Code::constant);
    EXPECT_EQ(folded.reads, 0u);
    const double unfolded = expr::evaluate(only_program(text), names);
    ASSERT_TRUE(same(folded.code[0].k, unfolded)) << bits(folded.code[0].k) << " vs " << bits(unfolded);
    ASSERT_TRUE(same(unfolded, eval(over_names, names)));
  }
}

// A --map table is made a chunk of entries at a time (map_values): the bits
// of one evaluation an entry, stored, for every entry a table may hold
// after the stages before it (any sample, in any order), at 8 and 16 bits.
TEST(ExprRandom, TablesHaveTheBitsOfOneEvaluationAnEntry) {
  std::mt19937 rng(1618);
  Printer printer(rng);
  for (int t = 0; t < 200; ++t) {
    const Node tree = random_tree(rng, 1 + t % 7, Leaves::v_and_numbers);
    const std::string text = printer.text(tree);
    SCOPED_TRACE(text);
    const Program program = only_program(text);
    ASSERT_TRUE(program.only_v());
    for (const std::int32_t max : {255, 65535}) {
      if (max == 65535 && t % 5) continue;  // a fifth at 16 bits: 65,536 evaluations each
      std::vector<std::int32_t> entries(static_cast<std::size_t>(max) + 1);
      for (std::int32_t& e : entries) e = std::uniform_int_distribution<std::int32_t>(0, max)(rng);
      std::vector<std::int32_t> table = entries;
      expr::map_values(program, table.data(), static_cast<int>(table.size()), max);
      for (std::size_t i = 0; i < entries.size(); ++i) {
        double names[expr::kNames] = {};
        names[static_cast<int>(expr::Name::v)] = double(entries[i]) / max;
        ASSERT_EQ(table[i], xm::store(expr::evaluate(program, names), max)) << "entry " << i << " of " << max + 1;
      }
    }
  }
}

}  // namespace
}  // namespace gpuimg::test
