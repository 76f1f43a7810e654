#pragma once
// The typed values an op's parameters take on the command line. Each type
// is parsed and validated in one place (lib/param_text.cpp) and printed back
// the same way, so -v shows what the stage record holds.
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gpuimg {

enum class ParamType {
  integer,   // 3
  real,      // 0.8
  geometry,  // WxH+X+Y, or WxH for a centred region; A%xB% or N% for WxH
  size,      // WxH (and WxH!, WxH>, WxH<, WxH^), Wx, xH, N% or A%xB%
  odd_size,  // WxH, both sides given and odd (a filter's window): held as a SizeSpec
  choice,    // one name from the spec's list
  fraction,  // 0.25 or 25%: held as the fraction
  list,      // 1,2,1: numbers between commas, to the end of the word
  expression,  // v^0.8: a --map expression, the whole word
};

// WxH+X+Y; offsets may be negative (-X-Y). `offset` false: WxH alone.
// A%xB% (or N%) in place of WxH: percentages of the image's sides, above 0
// and at most 100, with both sides 0 until a plan makes them pixels.
struct Geometry {
  std::int32_t width, height, x, y;
  bool offset;
  double width_percent, height_percent;
};

// A side in pixels from a percentage or a ratio of another: floor(v + 0.5),
// at least 1 (--resize's sizes and --crop's percentages).
inline double rounded_side(double v) { return std::max(1.0, std::floor(v + 0.5)); }

// WxH, Wx or xH (the missing side 0), or N% or A%xB% (percentages of the
// width and of the height, above 0, both sides 0; N% gives both N).
// WxH may end in one of ImageMagick's marks: '!' exactly (as WxH alone),
// '>' to fit inside WxH if larger, '<' to fit inside it if smaller, '^' to
// fill it.
enum class SizeFit : std::int32_t { exact, shrink_to_fit, fill, enlarge_to_fit };
struct SizeSpec {
  std::int32_t width, height;
  double width_percent, height_percent;
  SizeFit fit;
};

// A list's numbers stay on the host, kept for the whole run
// (lib/number_lists.hpp), so that records stay small and trivially copyable.
struct NumberList {
  std::int32_t handle, count;
};

// An expression's text and compiled programs stay on the host too
// (lib/expr/kept_expressions.hpp).
struct ExpressionRef {
  std::int32_t handle;
};

struct ParamValue {
  double number;  // integer, real
  Geometry geometry;
  SizeSpec size;
  std::int32_t choice;  // index into ParamSpec::choices
  NumberList list;
  ExpressionRef expression;
};

// Another name a choice answers to: Pillow's BICUBIC for resize's cubic.
struct ChoiceAlias {
  const char* name;
  int choice;
};

struct ParamSpec {
  const char* name;  // shown in --help: --blur R
  ParamType type;
  // integer, real, fraction: the inclusive range of the value (min
  // excluded where min_excluded); geometry, size, odd_size: of each side
  // (offsets may take any int); list: of each number.
  double min, max;
  const char* meaning;
  // choice: the names, in order, and other names some of them answer to;
  // either read without regard to case.
  const char* const* choices = nullptr;
  int choice_count = 0;
  const ChoiceAlias* aliases = nullptr;
  int alias_count = 0;
  // Written in the word of the value before, behind this character
  // ("50%:linear", "0.1,0.9"); 0 for a word of its own.
  char joined = 0;
  // Whether a joined value may be left out, with the values joined after
  // it; it then takes default_choice or default_number.
  bool optional = false;
  int default_choice = 0;
  double default_number = 0;
  bool min_excluded = false;
  // list: how many numbers it takes, at least and at most.
  int min_count = 1, max_count = 1;

  // What an op's spec adds to the five fields above, in its declaration:
  // ParamSpec{"G", ParamType::real, 0, 1, "gamma"}.above_min().after(',').or_default(1).
  constexpr ParamSpec after(char separator) const {
    ParamSpec s = *this;
    s.joined = separator;
    return s;
  }
  constexpr ParamSpec or_default(double number) const {
    ParamSpec s = *this;
    s.optional = true;
    s.default_number = number;
    return s;
  }
  constexpr ParamSpec or_choice(int index) const {
    ParamSpec s = *this;
    s.optional = true;
    s.default_choice = index;
    return s;
  }
  constexpr ParamSpec also(const ChoiceAlias* names, int count) const {
    ParamSpec s = *this;
    s.aliases = names;
    s.alias_count = count;
    return s;
  }
  constexpr ParamSpec above_min() const {
    ParamSpec s = *this;
    s.min_excluded = true;
    return s;
  }
  constexpr ParamSpec counts(int least, int most) const {
    ParamSpec s = *this;
    s.min_count = least;
    s.max_count = most;
    return s;
  }
};

}  // namespace gpuimg
