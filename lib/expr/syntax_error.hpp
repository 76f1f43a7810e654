#pragma once
// A --map expression the compiler refuses. what() is three lines: "column
// N: what was wrong", the expression as given (bytes outside printable
// ASCII shown as '?'; past 72 bytes, the 72 around column N, "..." marking
// what is left out), and a caret under column N.
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuimg::expr {

class SyntaxError : public std::runtime_error {
 public:
  // column: 1-based, in bytes of text; text.size() + 1 points past its end.
  SyntaxError(std::string_view text, int column, const std::string& message);
  int column() const { return column_; }

 private:
  int column_;
};

}  // namespace gpuimg::expr
