#include "expr/syntax_error.hpp"

#include <algorithm>
#include <utility>

namespace gpuimg::expr {
namespace {

// One character a byte, so that the caret stays under its column, and no
// byte that could drive the terminal reaches it.
std::string printable_ascii(std::string_view text) {
  std::string line(text);
  for (char& ch : line)
    if (ch < 0x20 || ch > 0x7e) ch = '?';
  return line;
}

// At most this many bytes of the expression are shown, around the column,
// with "..." where it goes on: a caret under column 2000 of a line that
// wraps in the terminal points at nothing.
constexpr std::size_t kWindow = 72;

std::array<std::string, 3> three_lines(std::string_view text, int column, const std::string& message) {
  const std::size_t at = static_cast<std::size_t>(column - 1);
  std::size_t from = 0;
  if (text.size() > kWindow) from = std::min(at > kWindow / 2 ? at - kWindow / 2 : 0, text.size() - kWindow);
  const std::size_t to = std::min(text.size(), from + kWindow);
  const std::string before = from > 0 ? "..." : "", after = to < text.size() ? "..." : "";
  return {"column " + std::to_string(column) + ": " + message, before + printable_ascii(text.substr(from, to - from)) + after,
          std::string(before.size() + at - from, ' ') + "^"};
}

}  // namespace

SyntaxError::SyntaxError(std::string_view text, int column, const std::string& message)
    : SyntaxError(three_lines(text, column, message), column) {}

SyntaxError::SyntaxError(std::array<std::string, 3> lines, int column)
    : std::runtime_error(lines[0] + "\n" + lines[1] + "\n" + lines[2]), lines_(std::move(lines)), column_(column) {}

}  // namespace gpuimg::expr
