#include "expr/syntax_error.hpp"

#include <algorithm>
#include <utility>

namespace gpuimg::expr {
namespace {

// One character a byte, so that the caret stays under its column, and no
// byte that could drive the terminal reaches it. Tabs and carriage returns
// are white space to the lexer, and a blank keeps the caret in place
// where a tab would move it to the terminal's next stop.
std::string printable_ascii(std::string_view text) {
  std::string line(text);
  for (char& ch : line)
    if (ch == '\t' || ch == '\r') ch = ' ';
    else if (ch < 0x20 || ch > 0x7e) ch = '?';
  return line;
}

// At most this many bytes of the line are shown, around the column, with
// "..." where it goes on: a caret under column 2000 of a line that wraps
// in the terminal points at nothing.
constexpr std::size_t kWindow = 72;

// The line holding byte AT (a newline belongs to the line it ends), as
// [first byte, past its last byte), and its number from 1.
struct Line {
  std::size_t from, to;
  int number;
};

Line line_of(std::string_view text, std::size_t at) {
  const std::size_t before = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
  const std::size_t from = before == std::string_view::npos ? 0 : before + 1;
  const std::size_t to = std::min(text.find('\n', from), text.size());
  const auto newlines = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(from), '\n');
  return {from, to, static_cast<int>(newlines) + 1};
}

std::array<std::string, 3> three_lines(std::string_view text, int column, const std::string& message) {
  const Line line = line_of(text, static_cast<std::size_t>(column - 1));
  const std::string_view shown = text.substr(line.from, line.to - line.from);
  const std::size_t at = static_cast<std::size_t>(column - 1) - line.from;
  std::size_t from = 0;
  if (shown.size() > kWindow) from = std::min(at > kWindow / 2 ? at - kWindow / 2 : 0, shown.size() - kWindow);
  const std::size_t to = std::min(shown.size(), from + kWindow);
  const std::string before = from > 0 ? "..." : "", after = to < shown.size() ? "..." : "";
  return {position_text(text, column) + ": " + message,
          before + printable_ascii(shown.substr(from, to - from)) + after, std::string(before.size() + at - from, ' ') + "^"};
}

}  // namespace

std::string position_text(std::string_view text, int column) {
  const Line line = line_of(text, static_cast<std::size_t>(column - 1));
  const std::string in_line = "column " + std::to_string(static_cast<std::size_t>(column) - line.from);
  if (text.find('\n') == std::string_view::npos) return in_line;
  return "line " + std::to_string(line.number) + ", " + in_line;
}

SyntaxError::SyntaxError(std::string_view text, int column, const std::string& message)
    : SyntaxError(three_lines(text, column, message), column) {}

SyntaxError::SyntaxError(std::array<std::string, 3> lines, int column)
    : std::runtime_error(lines[0] + "\n" + lines[1] + "\n" + lines[2]), lines_(std::move(lines)), column_(column) {}

}  // namespace gpuimg::expr
