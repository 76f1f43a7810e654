#include "expr/syntax_error.hpp"

namespace gpuimg::expr {
namespace {

// One character a byte, so that the caret stays under its column, and no
// byte that could drive the terminal reaches it.
std::string shown(std::string_view text) {
  std::string line(text);
  for (char& ch : line)
    if (ch < 0x20 || ch > 0x7e) ch = '?';
  return line;
}

std::string three_lines(std::string_view text, int column, const std::string& message) {
  return "column " + std::to_string(column) + ": " + message + "\n" + shown(text) + "\n" +
         std::string(column - 1, ' ') + "^";
}

}  // namespace

SyntaxError::SyntaxError(std::string_view text, int column, const std::string& message)
    : std::runtime_error(three_lines(text, column, message)), column_(column) {}

}  // namespace gpuimg::expr
