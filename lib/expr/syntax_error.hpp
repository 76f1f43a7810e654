#pragma once
// A --map expression the compiler refuses. what() is three lines: "column
// N: what was wrong" ("line L, column N: ..." in an expression of several
// lines, N counted within line L), the line of the expression holding the
// error (tabs and carriage returns shown as blanks, other bytes outside
// printable ASCII as '?'; past 72 bytes, the 72 around column N, "..."
// marking what is left out), and a caret under column N.
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpuimg::expr {

class SyntaxError : public std::runtime_error {
 public:
  // column: 1-based, in bytes of the whole text; text.size() + 1 points
  // past its end.
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

// Where the byte at COLUMN (1-based, of the whole text) stands, as the
// messages name it: "column 7", or "line 2, column 3" when text has
// several lines.
std::string position_text(std::string_view text, int column);

}  // namespace gpuimg::expr
