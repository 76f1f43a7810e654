// The parameter types op headers declare (kernels/param_values.hpp), read
// and printed back by lib/param_text.cpp: fractions, lists of numbers, odd
// sizes and ranges that exclude their minimum.
#include <gtest/gtest.h>

#include "error.hpp"
#include "number_lists.hpp"
#include "param_text.hpp"
#include "ops/rotate.hpp"
#include "pipeline.hpp"

namespace gpuimg::test {
namespace {

constexpr ParamSpec kFraction{"T", ParamType::fraction, 0, 1, "a level"};
constexpr ParamSpec kAboveZero = ParamSpec{"G", ParamType::real, 0, 10, "a gamma"}.above_min();
constexpr ParamSpec kList = ParamSpec{"K", ParamType::list, -5, 5, "weights"}.counts(2, 4);
constexpr ParamSpec kOddSize{"SIZE", ParamType::odd_size, 1, 31, "a window"};

std::string refusal(const ParamSpec& spec, const std::string& text) {
  try {
    parse_param("--op: " + std::string(spec.name), spec, text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ParamText, FractionsArePlainOrPercent) {
  EXPECT_EQ(parse_param("x", kFraction, "0.25").number, 0.25);
  EXPECT_EQ(parse_param("x", kFraction, "25%").number, 0.25);
  EXPECT_EQ(parse_param("x", kFraction, "12.5%").number, 0.125);
  EXPECT_EQ(parse_param("x", kFraction, "100%").number, 1);
  EXPECT_EQ(parse_param("x", kFraction, "0%").number, 0);
  for (const char* bad : {"%", "25 %", "101%", "1.01", "-1%", "0x1", "25%%", ""})
    EXPECT_EQ(refusal(kFraction, bad),
              std::string("--op: T must be a fraction from 0 to 1 or a percentage from 0% to 100%, got '") + bad + "'");
  EXPECT_EQ(param_text(kFraction, parse_param("x", kFraction, "40%")), "0.4");
}

TEST(ParamText, AnExcludedMinimumIsRefusedAndSaidSo) {
  EXPECT_EQ(refusal(kAboveZero, "0"), "--op: G must be a decimal number above 0, at most 10, got '0'");
  EXPECT_EQ(refusal(kAboveZero, "-0"), "--op: G must be a decimal number above 0, at most 10, got '-0'");
  EXPECT_EQ(parse_param("x", kAboveZero, "1e-300").number, 1e-300);
  EXPECT_EQ(parse_param("x", kAboveZero, "10").number, 10);
}

TEST(ParamText, ListsKeepTheirNumbersInOrder) {
  const ParamValue v = parse_param("x", kList, "1,-2.5,0.125,5");
  EXPECT_EQ(v.list.count, 4);
  EXPECT_EQ(number_list(v.list), (std::vector<double>{1, -2.5, 0.125, 5}));
  EXPECT_EQ(param_text(kList, v), "1,-2.5,0.125,5");
  const std::string form = "--op: K must be 2 to 4 numbers between commas, each from -5 to 5";
  for (const auto& [bad, problem] : {std::pair<const char*, const char*>{"1", "only 1"},
                                     {"1,2,3,4,5", "more than 4"},
                                     {"1,,2", "number 2 is empty"},
                                     {"1,2,", "number 3 is empty"},
                                     {",1,2", "number 1 is empty"},
                                     {"1,6", "number 2 is '6'"},
                                     {"1;2", "number 1 is '1;2'"},
                                     {"1, 2", "number 2 is ' 2' (no spaces in the list)"},
                                     {"1,2,3,4,", "number 5 is empty"},
                                     {"", "number 1 is empty"}})
    EXPECT_EQ(refusal(kList, bad), form + ", got '" + bad + "': " + problem);
  // A long list is not quoted whole.
  EXPECT_EQ(refusal(kList, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18"), form + "; more than 4");
  EXPECT_EQ(refusal(kList, "1.00000000000000000000000000000000000000,x"), form + "; number 2 is 'x'");
}

TEST(ParamText, OddSizesGiveBothSidesOdd) {
  const ParamValue v = parse_param("x", kOddSize, "31x1");
  EXPECT_EQ(v.size.width, 31);
  EXPECT_EQ(v.size.height, 1);
  EXPECT_EQ(v.size.width_percent, 0);
  EXPECT_EQ(v.size.height_percent, 0);
  EXPECT_EQ(param_text(kOddSize, v), "31x1");
  EXPECT_EQ(param_text(kOddSize, parse_param("x", kOddSize, "003x05")), "3x5");
  const std::string form = "--op: SIZE must be WxH with both sides odd, from 1 to 31, got '";
  for (const char* bad : {"2x2", "3x4", "33x1", "1x33", "3x", "x3", "3", "50%", "0x1", "-1x3", "+3x3", "3x3x3", "3X3", ""})
    EXPECT_EQ(refusal(kOddSize, bad), form + bad + "'");
}

// Sizes: ImageMagick's marks and a percentage of each side read and print
// back as written; a percentage must carry its own '%' on each side.
TEST(ParamText, SizesTakeMarksAndPercentagesOfEachSide) {
  constexpr ParamSpec spec{"SIZE", ParamType::size, 1, 1000, "a size"};
  for (const auto& [text, back] : {std::pair<const char*, const char*>{"100x100<", "100x100<"}, {"100x100>", "100x100>"},
                                   {"100x100^", "100x100^"}, {"100x100!", "100x100"}, {"50%x25%", "50%x25%"},
                                   {"50%x50%", "50%"}, {"12.5%x200%", "12.5%x200%"}, {"007%x1e2%", "7%x100%"},
                                   {"1000000%x1%", "1000000%x1%"}})
    EXPECT_EQ(param_text(spec, parse_param("x", spec, text)), back) << text;
  const SizeSpec s = parse_param("x", spec, "50%x25%").size;
  EXPECT_EQ(s.width_percent, 50);
  EXPECT_EQ(s.height_percent, 25);
  EXPECT_EQ(s.width, 0);
  EXPECT_EQ(s.height, 0);
  EXPECT_EQ(parse_param("x", spec, "30x40<").size.fit, SizeFit::enlarge_to_fit);
  const std::string form =
      "--op: SIZE must be WxH (exactly), WxH> (to fit inside, only shrinking), WxH< (to fit inside, only enlarging) "
      "or WxH^ (to fill), Wx or xH (the other side keeps the aspect ratio), N% or A%xB% (of each side), sides from 1 "
      "to 1000, got '";
  // ImageMagick's one '%' for both sides, and a side in pixels beside one
  // in percent, are named for what they are.
  const std::string hint = "; each side takes its own '%' (50%x25%), and a side in pixels cannot sit beside one in percent";
  EXPECT_EQ(refusal(spec, "50x25%"), form + "50x25%'" + hint);
  EXPECT_EQ(refusal(spec, "50%x25"), form + "50%x25'" + hint);
  // ImageMagick's width alone, a number: its form here.
  EXPECT_EQ(refusal(spec, "50"), form + "50'; a width alone is 50x, a height alone x50");
  for (const char* bad : {"50%x", "x50%", "%x50%", "50%x%", "50%x25%>", "50%<", "100x<", "x100<",
                          "100x100<>", "<", "-5%x5%", "5%x+5%", "0%x5%", "5%x0%", "5%x1000001%", "50%x25%x2%",
                          "50%25%", "50%X25%", "50 %x25%", "nan%x5%", ""})
    EXPECT_EQ(refusal(spec, bad), form + bad + "'") << bad;
}

// A crop's sides may be percentages of the image's, at most 100, with or
// without pixel offsets; they print back as written.
TEST(ParamText, GeometriesTakePercentagesOfEachSide) {
  constexpr ParamSpec spec{"GEOMETRY", ParamType::geometry, 1, 2147483647.0, "a region"};
  for (const auto& [text, back] : {std::pair<const char*, const char*>{"50%x25%", "50%x25%"}, {"50%x50%", "50%"},
                                   {"50%", "50%"}, {"50%x25%+10-5", "50%x25%+10-5"}, {"12.5%+0+0", "12.5%+0+0"},
                                   {"100%x0.5%-3+7", "100%x0.5%-3+7"}, {"10x20+1+2", "10x20+1+2"}, {"10x20", "10x20"}})
    EXPECT_EQ(param_text(spec, parse_param("x", spec, text)), back) << text;
  const Geometry g = parse_param("x", spec, "50%x25%-1+2").geometry;
  EXPECT_EQ(g.width_percent, 50);
  EXPECT_EQ(g.height_percent, 25);
  EXPECT_EQ(g.width, 0);
  EXPECT_EQ(g.x, -1);
  EXPECT_EQ(g.y, 2);
  EXPECT_TRUE(g.offset);
  EXPECT_FALSE(parse_param("x", spec, "50%").geometry.offset);
  const std::string form =
      "--op: GEOMETRY must be WxH+X+Y (offsets may be negative) or WxH (centred), sides from 1 to 2147483647, or "
      "with A%xB% or N% of the image's sides (above 0, at most 100%) for WxH, got '";
  for (const char* bad : {"50%x25", "50x25%", "101%", "100%x100.5%", "0%x5%", "50%x25%+1", "%x5%", "50%x25%x3%",
                          "-50%x5%", "+50%", "50%+", "50%x25%>", "50%x+25%", "50%x25%+1+2+3", "50 %", ""})
    EXPECT_EQ(refusal(spec, bad), form + bad + "'") << bad;
}

// How a joined word reads in --help and in the messages about it.
struct Joined {
  static constexpr std::array<ParamSpec, 4> params{
      {{"S", ParamType::real, 0, 1, "s"},
       ParamSpec{"A", ParamType::real, 0, 1, "a"}.after(',').or_default(1),
       ParamSpec{"T", ParamType::real, 0, 1, "t"}.after(',').or_default(0),
       {"R", ParamType::integer, 0, 1, "r"}}};
};

// A choice reads without regard to case, and answers to its aliases.
TEST(ParamText, ChoicesIgnoreCaseAndTakeTheirAliases) {
  static constexpr const char* names[] = {"nearest", "cubic", "lanczos3"};
  static constexpr ChoiceAlias aliases[] = {{"bicubic", 1}, {"lanczos", 2}};
  constexpr ParamSpec spec = ParamSpec{"FILTER", ParamType::choice, 0, 0, "a filter", names, 3}.also(aliases, 2);
  for (const auto& [text, choice] : {std::pair<const char*, int>{"nearest", 0}, {"NEAREST", 0}, {"Lanczos3", 2},
                                     {"bicubic", 1}, {"BiCubic", 1}, {"LANCZOS", 2}, {"cubic", 1}})
    EXPECT_EQ(parse_param("--op: FILTER", spec, text).choice, choice) << text;
  for (const char* text : {"lanczos4", "bicubic ", "", "cubi"})
    EXPECT_EQ(refusal(spec, text), "--op: FILTER must be one of nearest, cubic, lanczos3, got '" + std::string(text) + "'")
        << text;
}

// The README's "+3" reads as 3 for numbers; a quarter turn's "+90" too.
// Every multiple of 90 from -360 to 360 is a turn, 0 and the full turns none.
TEST(ParamText, RotateTakesEveryMultipleOf90FromMinus360To360) {
  for (const auto& [text, turns] :
       {std::pair<const char*, int>{"0", 0}, {"90", 1}, {"180", 2}, {"270", 3}, {"360", 0}, {"-90", 3}, {"-180", 2},
        {"-270", 1}, {"-360", 0}, {"+0", 0}, {"-0", 0}, {"+90", 1}, {"+180", 2}, {"+270", 3}, {"+360", 0}}) {
    const ParamValue v = parse_param("--rotate: ANGLE", Rotate::params[0], text);
    EXPECT_EQ(Rotate::make(&v).quarter_turns, turns) << text;
  }
  const std::string form = "--op: ANGLE must be one of 0, 90, 180, 270, 360, -90, -180, -270, -360, got '";
  for (const char* bad : {"+45", "45", "450", "-450", "720", "90.0", "090", "1e2", "", " 90", "90deg"})
    EXPECT_EQ(refusal(Rotate::params[0], bad), form + bad + "'") << bad;
  // -v shows the turn made, as the clockwise angle below a full turn.
  for (int turns = 0; turns < 4; ++turns)
    EXPECT_EQ(param_text(Rotate::params[0], Rotate::values({turns})[0]), std::to_string(turns * 90));
}

TEST(ParamText, JoinedValuesReadAsOneWord) {
  EXPECT_EQ(word_form<Joined>(0), "S[,A[,T]]");
  EXPECT_EQ(word_form<Joined>(2), "S[,A[,T]]");
  EXPECT_EQ(word_form<Joined>(3), "R");
  EXPECT_EQ(words_form<Joined>(), "S[,A[,T]] R");
  EXPECT_EQ(words_taken<Joined>(), 2u);
}

}  // namespace
}  // namespace gpuimg::test
