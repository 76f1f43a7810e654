// Any bytes as a --map expression: compile_map refuses it with a
// SyntaxError whose three lines put the caret under the column named, or
// gives 1 to 4 programs in which every instruction reads registers written
// before it and never the one it writes, which evaluate() then runs.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "expr/compile.hpp"
#include "expr/evaluate.hpp"
#include "fuzz_target.hpp"

using gpuimg::fuzz::require;
namespace expr = gpuimg::expr;

namespace {

void check_error(const expr::SyntaxError& e, std::string_view text) {
  const std::string what = e.what();
  const std::size_t first = what.find('\n'), last = what.rfind('\n');
  require(first != std::string::npos && last != first, "an error has three lines");
  require(what.compare(0, 7, "column ") == 0 || (text.find('\n') != std::string_view::npos && what.compare(0, 5, "line ") == 0),
          "an error names its column, and its line in a text of several");
  require(e.column() >= 1 && std::size_t(e.column()) <= std::min(text.size(), expr::kLongestText) + 1,
          "the column lies in the text or just past it");
  // The caret sits under the column: at the byte the column names, or just
  // past the text or its line (or the window of it shown, "..." around it).
  const std::string shown = what.substr(first + 1, last - first - 1), caret = what.substr(last + 1);
  const std::size_t at = caret.size() - 1;
  require(caret.find_first_not_of(' ') == at && caret[at] == '^', "the caret line is blanks and a caret");
  require(shown.size() <= 3 + 72 + 3, "at most 72 bytes of the text are shown");
  const std::size_t column = std::size_t(e.column()) - 1;
  if (column < std::min(text.size(), expr::kLongestText)) {
    const unsigned char byte = static_cast<unsigned char>(text[column]);
    const char seen = byte == '\t' || byte == '\r' ? ' ' : byte < 0x20 || byte > 0x7e ? '?' : char(byte);
    if (byte == '\n')
      require(at == shown.size(), "the caret at a newline sits just past its line");
    else
      require(at < shown.size() && shown[at] == seen, "the caret sits under the column's byte");
  }
}

void check_program(const expr::Program& p) {
  require(!p.code.empty() && p.registers >= 1, "a program computes something");
  std::vector<bool> written(p.registers, false);
  for (const expr::Instr& in : p.code) {
    require(in.dst < p.registers, "an instruction writes one of its registers");
    const std::uint16_t args[] = {in.a, in.b, in.c};
    for (int i = 0; i < expr::arity(in.code); ++i) {
      require(args[i] < p.registers && written[args[i]], "an instruction reads registers written before it");
      require(args[i] != in.dst, "an instruction never writes a register it reads");
    }
    written[in.dst] = true;
  }
  require(p.result < p.registers && written[p.result], "the result is written");
  const double names[expr::kNames] = {0.5, 0, 1, 0.25, 1, 2, 3, 4, 5, 6};
  expr::evaluate(p, names);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<expr::Program> programs;
  try {
    programs = expr::compile_map(text);
  } catch (const expr::SyntaxError& e) {
    check_error(e, text);
    return 0;
  }
  require(!programs.empty() && programs.size() <= std::size_t(expr::kMostExpressions), "1 to 4 programs");
  for (const expr::Program& p : programs) check_program(p);
  return 0;
}
