#pragma once
// The tokens of a --map expression: numbers, names and operators, each
// with its 1-based byte column for the error messages.
#include <string_view>
#include <vector>

namespace gpuimg::expr {

struct Token {
  enum Kind { number, name, symbol, end } kind;
  std::string_view text;  // a view of the expression; empty for end
  int column;
  double value;  // number's
};

// The whole text's tokens, closed by one `end` (past the text, or past the
// last token where a newline follows it); blanks, tabs, newlines and
// carriage returns separate them. Throws SyntaxError at the
// first byte that starts no token, for a malformed or too large number.
std::vector<Token> tokenize(std::string_view text);

}  // namespace gpuimg::expr
