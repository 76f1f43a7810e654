#pragma once
// The words of a --map expression: the names it may read, its two
// constants, its functions with their arities, and the nearest of them to
// a misspelt word for "did you mean".
#include <optional>
#include <string>
#include <string_view>

#include "expr/program.hpp"

namespace gpuimg::expr {

struct NameWord {
  std::string_view word;
  bool constant;  // pi, e: folded at compile time
  Name name;      // when not constant
  double value;   // when constant
};

struct FunctionWord {
  std::string_view word;
  Code code;
  int arity;
  bool more;  // or more arguments, folded left to right: min(a, b, c) = min(min(a, b), c)
};

const NameWord* find_name(std::string_view word);
const FunctionWord* find_function(std::string_view word);

// What to suggest for an unknown word: ImageMagick's u, i and j as v, x and
// y, its functions ln and logtwo as log and log2; else the known name or function nearest to it in lower case, at most 2
// edits away (1 for words of up to 4 letters, and for words of 1 or 2 only a
// letter more or less: "R" is r, "vv" v, "q" nothing), preferring the kind
// it was used as on a tie; a function
// suggested for a name is shown with its parentheses, "sin(...)".
std::optional<std::string> nearest_word(std::string_view word, bool used_as_call);

// A maths function well known from C, numpy or ImageMagick's -fx that
// --map lacks ("cot", "erf", "gamma"; case aside). Its nearest word is
// other maths ("cot" is one letter from "cos"), which a user who took the
// hint would get without a word, so none is offered for it.
bool foreign_function(std::string_view word);

// Every function's name, in the README's order, between blanks.
std::string function_words();

}  // namespace gpuimg::expr
