#include "expr/vocabulary.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

#include "ascii_case.hpp"

namespace gpuimg::expr {
namespace {

constexpr NameWord kNameWords[] = {
    {"v", false, Name::v, 0},  {"r", false, Name::r, 0},  {"g", false, Name::g, 0},
    {"b", false, Name::b, 0},  {"a", false, Name::a, 0},  {"c", false, Name::c, 0},
    {"x", false, Name::x, 0},  {"y", false, Name::y, 0},  {"w", false, Name::w, 0},
    {"h", false, Name::h, 0},  {"pi", true, Name::v, 3.141592653589793}, {"e", true, Name::v, 2.718281828459045},
};

constexpr FunctionWord kFunctionWords[] = {
    {"min", Code::min, 2, true}, {"max", Code::max, 2, true}, {"clamp", Code::clamp, 3, false},
    {"abs", Code::abs, 1, false}, {"sign", Code::sign, 1, false}, {"floor", Code::floor, 1, false},
    {"ceil", Code::ceil, 1, false}, {"round", Code::round, 1, false}, {"trunc", Code::trunc, 1, false},
    {"sqrt", Code::sqrt, 1, false}, {"cbrt", Code::cbrt, 1, false}, {"exp", Code::exp, 1, false},
    {"exp2", Code::exp2, 1, false}, {"expm1", Code::expm1, 1, false}, {"log", Code::log, 1, false},
    {"log2", Code::log2, 1, false}, {"log10", Code::log10, 1, false}, {"log1p", Code::log1p, 1, false},
    {"pow", Code::pow, 2, false}, {"sin", Code::sin, 1, false}, {"cos", Code::cos, 1, false},
    {"tan", Code::tan, 1, false}, {"asin", Code::asin, 1, false}, {"acos", Code::acos, 1, false},
    {"atan", Code::atan, 1, false}, {"atan2", Code::atan2, 2, false}, {"sinh", Code::sinh, 1, false},
    {"cosh", Code::cosh, 1, false}, {"tanh", Code::tanh, 1, false}, {"asinh", Code::asinh, 1, false},
    {"acosh", Code::acosh, 1, false}, {"atanh", Code::atanh, 1, false}, {"hypot", Code::hypot, 2, false},
    {"mix", Code::mix, 3, false}, {"step", Code::step, 2, false}, {"smoothstep", Code::smoothstep, 3, false},
};

// ImageMagick's -fx words that mean what one of ours does, suggested
// rather than accepted: its log is base 10, so its spellings are not ours.
struct MagickWord {
  std::string_view word, ours;
  bool call;
};
constexpr MagickWord kMagickWords[] = {
    {"u", "v", false}, {"i", "x", false}, {"j", "y", false}, {"ln", "log", true}, {"logtwo", "log2", true},
    // Functions there, operators here.
    {"mod", "a % b", true}, {"if", "c ? a : b", true},
};

constexpr std::string_view kForeignFunctions[] = {
    "sec",   "csc",  "cot",  "asec",    "acsc", "acot", "sech", "csch", "coth", "asech", "acsch",
    "acoth", "erf",  "erfc", "erfinv",  "gamma", "tgamma", "lgamma", "digamma", "beta", "sinc", "jinc",
    "j0",    "j1",   "y0",   "y1",      "logb", "exp10", "pow10", "sqr",
};

// Levenshtein distance, one row at a time.
int edits(std::string_view a, std::string_view b) {
  std::vector<int> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

const NameWord* find_name(std::string_view word) {
  for (const NameWord& n : kNameWords)
    if (n.word == word) return &n;
  return nullptr;
}

const FunctionWord* find_function(std::string_view word) {
  for (const FunctionWord& f : kFunctionWords)
    if (f.word == word) return &f;
  return nullptr;
}

bool foreign_function(std::string_view word) {
  const std::string lower = ascii_lower(word);
  return std::find(std::begin(kForeignFunctions), std::end(kForeignFunctions), lower) != std::end(kForeignFunctions);
}

std::string function_words() {
  std::string words;
  for (const FunctionWord& f : kFunctionWords) words += (words.empty() ? "" : " ") + std::string(f.word);
  return words;
}

std::optional<std::string> nearest_word(std::string_view word, bool used_as_call) {
  const std::string lower = ascii_lower(word);
  for (const MagickWord& m : kMagickWords)
    if (m.word == lower && m.call == used_as_call) return std::string(m.ours);
  // Case aside, a word of one or two letters is one change from many others:
  // such a guess misleads more than it helps, so a short word takes only a
  // letter more or less ("vv", "co"); a longer one an edit in 4 letters.
  const bool short_word = lower.size() <= 2;
  const int most_edits = lower.size() <= 4 ? 1 : 2;
  int best = most_edits + 1;
  std::string suggestion;
  // The kind it was used as goes first, so that it wins a tie.
  const auto consider = [&](std::string_view known, bool is_call) {
    const int d = edits(lower, known);
    if (d >= best || (short_word && d > 0 && known.size() == lower.size())) return;
    best = d;
    suggestion = std::string(known) + (is_call && !used_as_call ? "(...)" : "");
  };
  for (int pass = 0; pass < 2; ++pass) {
    const bool calls = (pass == 0) == used_as_call;
    if (calls)
      for (const FunctionWord& f : kFunctionWords) consider(f.word, true);
    else
      for (const NameWord& n : kNameWords) consider(n.word, false);
  }
  if (best > most_edits) return std::nullopt;
  return suggestion;
}

}  // namespace gpuimg::expr
