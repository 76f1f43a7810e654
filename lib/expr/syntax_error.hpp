#pragma once
// A --map expression the compiler refuses. what() is three lines: "column
// N: what was wrong", the expression as given (bytes outside printable
// ASCII shown as '?'; past 72 bytes, the 72 around column N, "..." marking
// what is left out), and a caret under column N.
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuimg::expr {

class SyntaxError : public std::runtime_error {
 public:
  // column: 1-based, in bytes of text; text.size() + 1 points past its end.
  SyntaxError(std::string_view text, int column, const std::string& message);
  int column() const { return column_; }
  // The three lines of what(), one by one.
  const std::string& problem() const { return lines_[0]; }
  const std::string& shown() const { return lines_[1]; }
  const std::string& caret() const { return lines_[2]; }

 private:
  SyntaxError(std::array<std::string, 3> lines, int column);
  std::array<std::string, 3> lines_;
  int column_;
};

}  // namespace gpuimg::expr
