// The --map language's grammar: precedence and associativity written out
// by hand, the programs' registers and reads, and the exact text of its
// error messages, hostile input included.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "expr/compile.hpp"
#include "expr/evaluate.hpp"

namespace gpuimg::test {
namespace {

using expr::compile_map;
using expr::Program;

double value(const std::string& text, double v = 0) {
  const std::vector<Program> programs = compile_map(text);
  EXPECT_EQ(programs.size(), 1u) << text;
  double names[expr::kNames] = {v, 0.25, 0.5, 0.75, 1, 0, 3, 4, 10, 20};
  return expr::evaluate(programs.at(0), names);
}

// The message compile_map throws for text, or "" when it compiles.
std::string error(const std::string& text) {
  try {
    compile_map(text);
  } catch (const expr::SyntaxError& e) {
    return e.what();
  }
  return "";
}

TEST(ExprSyntax, PrecedenceAndAssociativity) {
  const struct {
    const char* text;
    double want;
  } cases[] = {
      {"-2^2", -4},          {"2^3^2", 512},         {"2^-1", 0.5},          {"-2^-2", -0.25},
      {"(-2)^2", 4},         {"2*-3", -6},           {"- - 2", 2},           {"+-+2", -2},
      {"1 - 2 - 3", -4},     {"8 / 4 / 2", 1},       {"2 + 3 * 4", 14},      {"(2 + 3) * 4", 20},
      {"2 == 2 < 3", 0},     {"3 > 2 > 1", 0},       {"1 || 0 && 0", 1},     {"0 && 1 || 1", 1},
      {"!0 + 1", 2},         {"!(0 + 1)", 0},        {"1 != 1 == 0", 1},     {"1 + 1 == 2 && 2 < 3", 1},
      {"1 ? 2 : 0 ? 3 : 4", 2}, {"0 ? 2 : 0 ? 3 : 4", 4}, {"0 ? 2 : 1 ? 3 : 4", 3}, {"1 ? 0 ? 5 : 6 : 7", 6},
      {"0 ? 1 : 2 + 3", 5},  {"1 < 2 ? 10 : 20", 10}, {"1.5e3", 1500},       {".5", 0.5},
      {"5E-1", 0.5},         {"1e+2", 100},          {"2.", 2},              {"1e-400", 0},
      {"pi", 3.141592653589793}, {"e", 2.718281828459045}, {"pow(2, 10)", 1024}, {"min(1, 0/0)", 1},
      {"max(0/0, -1)", -1},  {"clamp(7, 0, 1)", 1},  {"mix(2, 4, 0.5)", 3},  {"step(0.5, 0.5)", 1},
      {"smoothstep(0, 1, 0.5)", 0.5}, {"round(-2.5)", -3}, {"round(0.49999999999999994)", 0}, {"atan2(0, -1)", M_PI},
      // % is fmod, as tight as * and /, left to right.
      {"7 % 4 * 2", 6},      {"2 * 7 % 4", 2},       {"7 % 4 % 2", 1},       {"2 + 7 % 4", 5},
      {"-7 % 4", -3},        {"7.5 % -2", 1.5},      {"2^3 % 5", 3},         {"-2^2 % 3", -1},
      // min and max take any number from 2 on, folded left to right.
      {"min(3, 1, 2)", 1},   {"max(3, 1, 2, 5, 4)", 5}, {"min(0/0, 2, 1)", 1}, {"max(1, 0/0, 0/0)", 1},
      {"sign(-3)", -1},      {"sign(1e-320)", 1},    {"trunc(-2.7)", -2},    {"log2(8)", 3},
      {"log10(1000)", 3},    {"atan(1)", M_PI / 4},  {"asin(1)", M_PI / 2},  {"acos(-1)", M_PI},
  };
  for (const auto& c : cases) EXPECT_EQ(value(c.text), c.want) << c.text;
  EXPECT_EQ(value("-v^2", 3), -9);
  EXPECT_EQ(value("w*h + x - y"), 10 * 20 + 3 - 4);
  EXPECT_TRUE(std::isnan(value("log(-1)")));
  EXPECT_TRUE(std::isnan(value("0/0")));
  EXPECT_TRUE(std::isnan(value("1 % 0")));
  EXPECT_TRUE(std::isnan(value("sign(0/0)")));
  EXPECT_TRUE(std::signbit(value("sign(-0)")));
  EXPECT_FALSE(std::signbit(value("sign(0)")));
}

// min(a, b, c) is min(min(a, b), c): the same instructions, in that order.
TEST(ExprSyntax, MinAndMaxOfSeveralFoldLeftToRight) {
  const Program several = compile_map("max(v, r, g, b)").at(0), nested = compile_map("max(max(max(v, r), g), b)").at(0);
  ASSERT_EQ(several.code.size(), nested.code.size());
  for (std::size_t i = 0; i < several.code.size(); ++i) {
    EXPECT_EQ(several.code[i].code, nested.code[i].code) << i;
    EXPECT_EQ(several.code[i].a, nested.code[i].a) << i;
  }
  EXPECT_EQ(several.code.back().code, expr::Code::max);
}

// The row evaluator's loops rely on these (row_eval.cpp): each instruction
// reads registers written before it and never writes one it reads.
void expect_well_formed(const Program& p, const std::string& text) {
  std::vector<bool> written(p.registers, false);
  for (const expr::Instr& in : p.code) {
    ASSERT_LT(in.dst, p.registers) << text;
    const std::uint16_t args[] = {in.a, in.b, in.c};
    for (int i = 0; i < expr::arity(in.code); ++i) {
      ASSERT_TRUE(written[args[i]]) << text << ": " << expr::code_name(in.code) << " reads an unwritten register";
      ASSERT_NE(args[i], in.dst) << text << ": " << expr::code_name(in.code) << " writes what it reads";
    }
    written[in.dst] = true;
  }
  ASSERT_TRUE(written.at(p.result)) << text;
}

TEST(ExprSyntax, RegistersAreReusedOnceTheirValueIsRead) {
  std::string sum = "v", nested = "v";
  for (int i = 0; i < 200; ++i) {
    sum += " + sin(r * " + std::to_string(i) + ")";
    nested = "min(" + nested + ", g)";
  }
  for (const std::string& text : {sum, nested, std::string("clamp(v*2, r, g) ? x : y / w")}) {
    const Program p = compile_map(text).at(0);
    expect_well_formed(p, text);
    EXPECT_LE(p.registers, 4) << text;
  }
}

TEST(ExprSyntax, ReadsNamesTheNamesRead) {
  using expr::Name;
  const Program p = compile_map("r + x * pi").at(0);
  EXPECT_EQ(p.reads, (1u << int(Name::r)) | (1u << int(Name::x)));
  EXPECT_FALSE(p.only_v());
  EXPECT_TRUE(compile_map("v * 2 + sqrt(v)").at(0).only_v());
  const Program k = compile_map("sin(pi / 2) * e").at(0);
  EXPECT_EQ(k.reads, 0u);
  ASSERT_EQ(k.code.size(), 1u);
  EXPECT_EQ(k.code[0].code, expr::Code::constant);
}

TEST(ExprSyntax, PowerAndCaretCompileAlike) {
  const Program caret = compile_map("v ^ r").at(0), call = compile_map("pow(v, r)").at(0);
  ASSERT_EQ(caret.code.size(), call.code.size());
  EXPECT_EQ(caret.code.back().code, expr::Code::pow);
  EXPECT_EQ(call.code.back().code, expr::Code::pow);
}

TEST(ExprSyntax, CodesNameTheirFunctionAndArity) {
  using expr::Code;
  EXPECT_STREQ(expr::code_name(Code::constant), "constant");
  EXPECT_STREQ(expr::code_name(Code::name), "name");
  EXPECT_STREQ(expr::code_name(Code::smoothstep), "smoothstep");
  EXPECT_STREQ(expr::code_name(Code::lnot), "lnot");
  EXPECT_EQ(expr::arity(Code::constant), 0);
  EXPECT_EQ(expr::arity(Code::sqrt), 1);
  EXPECT_EQ(expr::arity(Code::step), 2);
  EXPECT_EQ(expr::arity(Code::select), 3);
}

TEST(ExprErrors, ExactMessages) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"v *", "column 4: expected an operand after '*'\nv *\n   ^"},
      {"vv + 1", "column 1: unknown name 'vv' (did you mean 'v'?)\nvv + 1\n^"},
      {"sine(v)", "column 1: unknown function 'sine' (did you mean 'sin'?)\nsine(v)\n^"},
      {"1 - sine", "column 5: unknown name 'sine' (did you mean 'sin(...)'?)\n1 - sine\n    ^"},
      {"sin * 2", "column 1: 'sin' is a function: sin(...)\nsin * 2\n^"},
      {"2 * v(3)", "column 5: 'v' is not a function\n2 * v(3)\n    ^"},
      {"width", "column 1: unknown name 'width'\nwidth\n^"},
      {"flor", "column 1: unknown name 'flor' (did you mean 'floor(...)'?)\nflor\n^"},
      {"co(v)", "column 1: unknown function 'co' (did you mean 'cos'?)\nco(v)\n^"},
      {"clamp(v, 0)", "column 1: 'clamp' takes 3 arguments, got 2\nclamp(v, 0)\n^"},
      {"sqrt()", "column 1: 'sqrt' takes 1 argument, got 0\nsqrt()\n^"},
      {"min(v)", "column 1: 'min' takes 2 or more arguments, got 1\nmin(v)\n^"},
      {"sign(v, 1)", "column 1: 'sign' takes 1 argument, got 2\nsign(v, 1)\n^"},
      {"v %", "column 4: expected an operand after '%'\nv %\n   ^"},
      {"% v", "column 1: expected an operand before '%'\n% v\n^"},
      {"ln(v)", "column 1: unknown function 'ln' (did you mean 'log'?)\nln(v)\n^"},
      {"logtwo(v)", "column 1: unknown function 'logtwo' (did you mean 'log2'?)\nlogtwo(v)\n^"},
      {"Log10(v)", "column 1: unknown function 'Log10' (did you mean 'log10'?)\nLog10(v)\n^"},
      {"arcsin(v)", "column 1: unknown function 'arcsin' (did you mean 'asin'?)\narcsin(v)\n^"},
      {"mod(v, 2)", "column 1: unknown function 'mod' (did you mean 'a % b'?)\nmod(v, 2)\n^"},
      {"if(v < 0.5, 0, 1)", "column 1: unknown function 'if' (did you mean 'c ? a : b'?)\nif(v < 0.5, 0, 1)\n^"},
      {"modulo(v, 2)", "column 1: unknown function 'modulo'\nmodulo(v, 2)\n^"},
      {"v)", "column 2: unexpected ')'\nv)\n ^"},
      {")", "column 1: unexpected ')'\n)\n^"},
      {"2*(v+1", "column 7: expected ')' to close the '(' at column 3\n2*(v+1\n      ^"},
      {"min(1 2)", "column 7: expected ',' or ')' to close the '(' at column 4\nmin(1 2)\n      ^"},
      {"()", "column 2: expected an operand after '('\n()\n ^"},
      {"*v", "column 1: expected an operand before '*'\n*v\n^"},
      {"2 v", "column 3: expected an operator before 'v'\n2 v\n  ^"},
      {"v ? 1", "column 6: expected ':' for the '?' at column 3\nv ? 1\n     ^"},
      {"v : 1", "column 3: unexpected ':' (no '?' before it)\nv : 1\n  ^"},
      {"v = 1", "column 3: unexpected '=' (did you mean '=='?)\nv = 1\n  ^"},
      {"v == = 1", "column 6: unexpected '='\nv == = 1\n     ^"},
      {"v <== 1", "column 5: unexpected '='\nv <== 1\n    ^"},
      {"v ** 2", "column 4: expected an operand after '*' (the power is '^': v^2)\nv ** 2\n   ^"},
      {"v & r", "column 3: unexpected '&' (did you mean '&&'?)\nv & r\n  ^"},
      {"1..2", "column 3: unexpected '.' after the number '1.'\n1..2\n  ^"},
      {"u.r*0.5", "column 2: unexpected '.' after a name (ImageMagick's u.r is r here: r, g, b, a are this pixel's "
                  "channels)\nu.r*0.5\n ^"},
      {"v . 2", "column 3: expected a digit after '.'\nv . 2\n  ^"},
      {"2pi", "column 2: unexpected 'p' after the number '2'\n2pi\n ^"},
      {"2e", "column 3: expected the exponent's digits in '2e'\n2e\n  ^"},
      {"1e400", "column 1: the number '1e400' is too large for a double\n1e400\n^"},
      {"", "column 1: empty expression\n\n^"},
      {"   ", "column 4: empty expression\n   \n   ^"},
      {";;", "column 1: empty expression\n;;\n^"},
      {"v;", "column 3: empty expression\nv;\n  ^"},
      {"v;;r", "column 3: empty expression\nv;;r\n  ^"},
      {"(v;r)", "column 3: expected ')' to close the '(' at column 1\n(v;r)\n  ^"},
      {"v;r;g;b;a", "column 9: more than 4 expressions (one per colour channel)\nv;r;g;b;a\n        ^"},
      {"v + \xc3\xa9", "column 5: byte 0xC3 is not printable ASCII, which expressions are written in\nv + ??\n    ^"},
      {"v\v+ 1", "column 2: byte 0x0B is not printable ASCII, which expressions are written in\nv?+ 1\n ^"},
      {"v + \x1b[2J", "column 5: byte 0x1B is not printable ASCII, which expressions are written in\nv + ?[2J\n    ^"},
  };
  for (const auto& c : cases) EXPECT_EQ(error(c.text), c.message) << c.text;
}

// Scripts spread a long expression over lines: newlines, tabs and carriage
// returns separate tokens as blanks do.
TEST(ExprSyntax, NewlinesTabsAndCarriageReturnsAreWhiteSpace) {
  EXPECT_EQ(value("v *\n2", 3), 6);
  EXPECT_EQ(value("\tv\r\n+\t1\n", 3), 4);
  EXPECT_EQ(compile_map("v;\nr;\r\n  g").size(), 3u);
}

// An error in an expression of several lines names the line and shows only
// it, the caret under the column counted within it.
TEST(ExprErrors, ErrorsInSeveralLinesShowTheirLine) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"r * 0.3 +\n  g * 0.6 +\n  b * * 0.1",
       "line 3, column 7: expected an operand after '*'\n  b * * 0.1\n      ^"},
      {"v *\n", "line 1, column 4: expected an operand after '*'\nv *\n   ^"},
      {"v *  \n\n", "line 1, column 4: expected an operand after '*'\nv *  \n   ^"},
      {"min(v,\n    r", "line 2, column 6: expected ',' or ')' to close the '(' at line 1, column 4\n    r\n     ^"},
      {"v +\r\n  sine(r)", "line 2, column 3: unknown function 'sine' (did you mean 'sin'?)\n  sine(r)\n  ^"},
      {"v > 0.5\n  ? 1", "line 2, column 6: expected ':' for the '?' at line 2, column 3\n  ? 1\n     ^"},
      {"\n", "line 1, column 1: empty expression\n\n^"},
      {"v;\n;r", "line 2, column 1: empty expression\n;r\n^"},
      // One line with tabs: the tab shows as a blank, the caret under its column.
      {"\tv ? 1", "column 7: expected ':' for the '?' at column 4\n v ? 1\n      ^"},
  };
  for (const auto& c : cases) EXPECT_EQ(error(c.text), c.message) << c.text;
}

// A long line is cut around the column as a one-line expression is; the
// lines before it are not shown.
TEST(ExprErrors, ALongLineOfSeveralIsShownAroundTheColumn) {
  std::string line;
  for (int i = 0; i < 50; ++i) line += "v+";
  const std::string message = error("v +\n" + line + "?");
  EXPECT_EQ(message, "line 2, column 101: expected an operand after '+'\n..." + line.substr(line.size() - 71) + "?\n" + std::string(74, ' ') + "^");
}

// The functions users port from C, numpy and ImageMagick's -fx, each its
// own maths rather than a near word's.
TEST(ExprSyntax, HyperbolicAndNumericHelpers) {
  EXPECT_EQ(value("cbrt(-27)"), -3);
  EXPECT_EQ(value("exp2(10)"), 1024);
  EXPECT_EQ(value("exp2(-1)"), 0.5);
  EXPECT_EQ(value("log1p(0)"), 0);
  EXPECT_EQ(value("expm1(0)"), 0);
  EXPECT_EQ(value("log1p(1e-20)"), 1e-20);
  EXPECT_EQ(value("expm1(1e-20)"), 1e-20);
  EXPECT_EQ(value("sinh(0) + tanh(0) + asinh(0) + atanh(0) + acosh(1)"), 0);
  EXPECT_EQ(value("cosh(0)"), 1);
  EXPECT_EQ(value("tanh(30)"), 1);
  EXPECT_EQ(value("atanh(-1)"), -HUGE_VAL);
  EXPECT_TRUE(std::isnan(value("acosh(0.5)")));
  EXPECT_TRUE(std::isnan(value("log1p(-2)")));
  for (const char* word : {"sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "log1p", "expm1", "cbrt", "exp2"}) {
    const Program p = compile_map(std::string(word) + "(v)").at(0);
    EXPECT_STREQ(expr::code_name(p.code.back().code), word);
  }
}

// A maths name well known elsewhere that --map lacks gets no "did you mean"
// (cot is not cos, asech not asinh, sinc not sin): the functions are listed.
TEST(ExprErrors, WellKnownFunctionsWeLackListOurs) {
  const std::string ours =
      "(those are min max clamp abs sign floor ceil round trunc sqrt cbrt exp exp2 expm1 log log2 log10 log1p pow sin "
      "cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh hypot mix step smoothstep)";
  EXPECT_EQ(error("erf(v)"), "column 1: 'erf' is not a --map function " + ours + "\nerf(v)\n^");
  EXPECT_EQ(error("1 + cot(v)"), "column 5: 'cot' is not a --map function " + ours + "\n1 + cot(v)\n    ^");
  EXPECT_EQ(error("Gamma * v"), "column 1: 'Gamma' is not a --map function " + ours + "\nGamma * v\n^");
  for (const char* word : {"sec", "csc", "cot", "acot", "coth", "acoth", "asech", "erf", "erfc", "gamma", "lgamma",
                           "tgamma", "sinc", "logb", "exp10", "sqr", "j0"}) {
    for (const std::string& text : {std::string(word) + "(v)", std::string(word) + " + v"}) {
      const std::string message = error(text);
      EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
      EXPECT_NE(message.find("'" + std::string(word) + "' is not a --map function"), std::string::npos) << message;
    }
  }
}

TEST(ExprErrors, SyntaxErrorCarriesItsColumn) {
  try {
    compile_map("1 + (2 * )");
    FAIL() << "compiled";
  } catch (const expr::SyntaxError& e) {
    EXPECT_EQ(e.column(), 10);
  }
}

// Hostile input: an error at the right column, never a crash or a stack overflow.
TEST(ExprErrors, DeepNestingIsRefused) {
  const std::string limit = std::to_string(expr::kDeepestNesting);
  const int over = expr::kDeepestNesting + 1;
  const std::string nested_message = "column " + std::to_string(over) + ": nested more than " + limit + " deep";
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  EXPECT_EQ(error(repeat("(", over) + "v" + repeat(")", over)).substr(0, nested_message.size()), nested_message);
  EXPECT_EQ(error(repeat("-", 1000) + "v").substr(0, nested_message.size()), nested_message);
  const std::string call_message = "column " + std::to_string(4 * over) + ": nested more than " + limit + " deep";
  EXPECT_EQ(error(repeat("sin(", 300) + "v" + repeat(")", 300)).substr(0, call_message.size()), call_message);
  EXPECT_NE(error(repeat("2^", 1000) + "2").find("nested more than"), std::string::npos);
  EXPECT_NE(error(repeat("1?1:", 1000) + "1").find("nested more than"), std::string::npos);
  // Just inside the limit compiles.
  EXPECT_EQ(error(repeat("(", expr::kDeepestNesting) + "v" + repeat(")", expr::kDeepestNesting)), "");
}

// Past 72 bytes the expression is shown around the column, "..." where it
// goes on, and the caret still under the column.
TEST(ExprErrors, ALongExpressionIsShownAroundTheColumn) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "v+";
  text += "?+v+v+v+v";
  const std::string message = error(text);
  ASSERT_EQ(message.rfind("column 201: ", 0), 0u) << message;
  const std::size_t first = message.find('\n'), second = message.find('\n', first + 1);
  const std::string shown = message.substr(first + 1, second - first - 1), caret = message.substr(second + 1);
  EXPECT_EQ(shown.substr(0, 3), "...");
  EXPECT_LE(shown.size(), 3u + 72 + 3);
  ASSERT_EQ(caret.size(), caret.find('^') + 1);
  EXPECT_EQ(shown[caret.size() - 1], '?') << shown << "\n" << caret;
  EXPECT_EQ(shown, "..." + text.substr(text.size() - 72)) << "near the end, the window ends with the text";
}

TEST(ExprErrors, OverlongTextIsRefusedAndShownCut) {
  std::string deep(100000, '(');
  const std::string message = error(deep);
  const std::string head = "column 4097: longer than 4096 bytes\n";
  ASSERT_EQ(message.substr(0, head.size()), head);
  EXPECT_EQ(message.substr(head.size()), "..." + std::string(69, '(') + "...\n" + std::string(72, ' ') + "^");
  // 4096 bytes is allowed: v+v+...+v.
  std::string longest = "v";
  while (longest.size() + 2 <= expr::kLongestText) longest += "+v";
  EXPECT_EQ(error(longest), "");
  EXPECT_NE(error(longest + "+v").find("longer than 4096 bytes"), std::string::npos);
}

// Whatever the error, the caret sits under the column the first line names.
TEST(ExprErrors, CaretSitsUnderTheColumn) {
  for (const char* text : {"v + + ", "clamp(v,,1)", "1 ? 2", "(((v)", "v v", "a+b+cc", "x*y/*", "hypot(1)"}) {
    try {
      compile_map(text);
      ADD_FAILURE() << text << " compiled";
    } catch (const expr::SyntaxError& e) {
      const std::string what = e.what();
      const std::string caret = what.substr(what.rfind('\n') + 1);
      EXPECT_EQ(caret, std::string(e.column() - 1, ' ') + "^") << what;
      EXPECT_EQ(what.substr(0, what.find(':')), "column " + std::to_string(e.column()));
    }
  }
}

}  // namespace
}  // namespace gpuimg::test
