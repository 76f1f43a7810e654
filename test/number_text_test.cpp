// Numbers as text (lib/number_text.hpp): the one grammar every numeric
// option reads, its edges (underflow, overflow, signs), and the message.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "error.hpp"
#include "number_text.hpp"

namespace gpuimg::test {
namespace {

TEST(NumberText, PlainDecimalsAreRead) {
  const std::pair<const char*, double> cases[] = {
      {"0", 0},       {"-1", -1},        {"+2", 2},       {"0.8", 0.8},   {".5", 0.5},
      {"5.", 5},      {"2.5e-3", 2.5e-3}, {"1E6", 1e6},   {"1e+3", 1e3},  {"007", 7},
      {"0.1", 0.1},   {"1000", 1000},    {"-2.5E-1", -0.25}};
  for (const auto& [text, value] : cases) {
    const std::optional<double> v = read_decimal(text);
    ASSERT_TRUE(v.has_value()) << text;
    EXPECT_EQ(*v, value) << text;
  }
}

// Past the normal range a decimal is still a decimal: it rounds to a
// subnormal or zero, or to an infinity that every range refuses.
TEST(NumberText, UnderflowRoundsAndOverflowIsInfinite) {
  EXPECT_EQ(read_decimal("1e-320"), 1e-320);
  EXPECT_EQ(read_decimal("4.9406564584124654e-324"), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(read_decimal("1e-400"), 0.0);
  EXPECT_EQ(read_decimal("1e400"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(read_decimal("-1e400"), -std::numeric_limits<double>::infinity());
}

const char* const kNotDecimals[] = {"", "+", "-", ".", "e5", "1e", "1e+", ".e1", "0x10", "0X1P3", "0x1p-2", "inf",
                                    "-inf", "infinity", "nan", "NAN", "nan(1)", " 1", "1 ", "\t1", "1\n", "1,5",
                                    "1.2.3", "1_000", "--1", "+-1", "1e5.5", "1e--1", "0b1", "\xd9\xa1", "1f", "1d"};

TEST(NumberText, AnythingElseIsRefused) {
  for (const char* text : kNotDecimals) EXPECT_EQ(read_decimal(text), std::nullopt) << "'" << text << "'";
}

TEST(NumberText, IntegersAreDigitsWithAnOptionalSign) {
  EXPECT_EQ(read_integer<int>("0"), 0);
  EXPECT_EQ(read_integer<int>("-5"), -5);
  EXPECT_EQ(read_integer<int>("+7"), 7);
  EXPECT_EQ(read_integer<int>("007"), 7);
  EXPECT_EQ(read_integer<std::uint64_t>("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
  for (const char* text : {"1.0", "1e3", "1.", ".5", "2147483648", "-2147483649"})
    EXPECT_EQ(read_integer<int>(text), std::nullopt) << text;
  for (const char* text : kNotDecimals) EXPECT_EQ(read_integer<int>(text), std::nullopt) << "'" << text << "'";
  EXPECT_EQ(read_integer<std::uint64_t>("-1"), std::nullopt);
  EXPECT_EQ(read_integer<std::uint64_t>("18446744073709551616"), std::nullopt);
}

std::string refusal(const std::string& text, NumberForm form, double min, double max) {
  try {
    parse_number("--opt:", text, form, min, max);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(NumberText, ParseNumberChecksTheRangeAndSaysWhatItWanted) {
  EXPECT_EQ(parse_number("--opt:", "1e-320", NumberForm::decimal, 0, 1000), 1e-320);
  EXPECT_EQ(parse_number("--opt:", "1000", NumberForm::decimal, 0, 1000), 1000);
  EXPECT_EQ(parse_number("--opt:", "+3", NumberForm::integer, 1, 4096), 3);
  EXPECT_EQ(refusal("0x10", NumberForm::decimal, 0, 1000),
            "--opt: must be a decimal number from 0 to 1000, got '0x10'");
  EXPECT_EQ(refusal("1e400", NumberForm::decimal, 0, 1000),
            "--opt: must be a decimal number from 0 to 1000, got '1e400'");
  EXPECT_EQ(refusal("-1e-320", NumberForm::decimal, 0, 1000),
            "--opt: must be a decimal number from 0 to 1000, got '-1e-320'");
  EXPECT_EQ(refusal("1e400", NumberForm::decimal, 0, std::numeric_limits<double>::infinity()),
            "--opt: must be a finite decimal number, 0 or more, got '1e400'");
  EXPECT_EQ(refusal("2.5", NumberForm::integer, 1, 4096), "--opt: must be an integer from 1 to 4096, got '2.5'");
  EXPECT_EQ(refusal("1e3", NumberForm::integer, 1, 4096), "--opt: must be an integer from 1 to 4096, got '1e3'");
  EXPECT_EQ(refusal("99999999999999999999", NumberForm::integer, 1, 4096),
            "--opt: must be an integer from 1 to 4096, got '99999999999999999999'");
}

// A percentage is the decimal with its point moved, not a division:
// 1.1 / 100 is a place off 0.011.
TEST(NumberText, PercentagesAreTheDecimalsTheyWrite) {
  EXPECT_EQ(read_fraction("1.1%"), 0.011);
  EXPECT_EQ(read_fraction("0.7%"), 0.007);
  EXPECT_EQ(read_fraction("-10%"), -0.1);
  EXPECT_EQ(read_fraction("5.%"), 0.05);
  EXPECT_EQ(read_fraction("1e1%"), 0.1);
  EXPECT_EQ(read_fraction("25"), 25);
  EXPECT_EQ(read_fraction("%"), std::nullopt);
  EXPECT_EQ(read_fraction("x%"), std::nullopt);
  EXPECT_EQ(read_fraction("1%%"), std::nullopt);
}

TEST(NumberText, PrintedShortestAndExact) {
  EXPECT_EQ(number_text(0.8), "0.8");
  EXPECT_EQ(number_text(1e-320), "1e-320");
  EXPECT_EQ(number_text(4096), "4096");
  EXPECT_EQ(number_text(100000), "100000") << "whole numbers in full, not 1e+05";
  EXPECT_EQ(number_text(-100000), "-100000");
  EXPECT_EQ(number_text(1e14), "100000000000000");
  EXPECT_EQ(number_text(-0.0), "0") << "one zero";
  EXPECT_EQ(number_text(1e15), "1e+15") << "past 10^15 the shortest form again";
  EXPECT_EQ(number_text(2.5e5 + 0.5), "250000.5");
  EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-inf");
}

}  // namespace
}  // namespace gpuimg::test
