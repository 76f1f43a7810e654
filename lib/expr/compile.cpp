#include "expr/compile.hpp"

#include <string>
#include <utility>

#include "expr/lexer.hpp"
#include "expr/program_builder.hpp"
#include "expr/vocabulary.hpp"

namespace gpuimg::expr {
namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

struct BinaryOp {
  std::string_view symbol;
  Code code;
};

// Recursive descent, one function a precedence level, lowest first:
// ?: || && (== !=) (< <= > >=) (+ -) (* / %) unary(- + !) ^ primary.
class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : text_(text), tokens_(std::move(tokens)) {}

  std::vector<Program> programs() {
    std::vector<Program> out;
    while (true) {
      if (static_cast<int>(out.size()) == kMostExpressions)
        fail(peek(), "more than " + std::to_string(kMostExpressions) + " expressions (one per colour channel)");
      start_ = at_;
      builder_ = ProgramBuilder();
      const Value result = ternary();
      out.push_back(builder_.finish(result));
      if (peek().kind == Token::end) return out;
      if (!accept(";")) unexpected_after_expression();
    }
  }

 private:
  // Holds the depth of nesting while a construct recurses: hostile text
  // must get an error, not overflow the stack.
  class Deeper {
   public:
    Deeper(Parser& p, const Token& at) : p_(p) {
      if (++p_.depth_ > kDeepestNesting) p_.fail(at, "nested more than " + std::to_string(kDeepestNesting) + " deep");
    }
    ~Deeper() { --p_.depth_; }
    Deeper(const Deeper&) = delete;
    Deeper& operator=(const Deeper&) = delete;

   private:
    Parser& p_;
  };

  const Token& peek() const { return tokens_[at_]; }
  bool is(std::string_view symbol) const { return peek().kind == Token::symbol && peek().text == symbol; }
  bool accept(std::string_view symbol) {
    if (!is(symbol)) return false;
    ++at_;
    return true;
  }
  [[noreturn]] void fail(const Token& at, const std::string& message) const {
    throw SyntaxError(text_, at.column, message);
  }

  Value ternary() {
    Value cond = logical_or();
    if (!is("?")) return cond;
    const Token& question = tokens_[at_++];
    const Deeper deeper(*this, question);
    Value then = ternary();
    if (!accept(":")) fail(peek(), "expected ':' for the '?' at " + position_text(text_, question.column));
    Value otherwise = ternary();
    return builder_.apply(Code::select, {cond, then, otherwise});
  }

  // One left-associative level: next (op next)*.
  template <std::size_t N> Value binary(const BinaryOp (&ops)[N], Value (Parser::*next)()) {
    Value left = (this->*next)();
    for (bool more = true; more;) {
      more = false;
      for (const BinaryOp& op : ops)
        if (accept(op.symbol)) {
          Value right = (this->*next)();
          left = builder_.apply(op.code, {left, right});
          more = true;
          break;
        }
    }
    return left;
  }

  Value logical_or() {
    static constexpr BinaryOp kOps[] = {{"||", Code::lor}};
    return binary(kOps, &Parser::logical_and);
  }
  Value logical_and() {
    static constexpr BinaryOp kOps[] = {{"&&", Code::land}};
    return binary(kOps, &Parser::equality);
  }
  Value equality() {
    static constexpr BinaryOp kOps[] = {{"==", Code::eq}, {"!=", Code::ne}};
    return binary(kOps, &Parser::relational);
  }
  Value relational() {
    static constexpr BinaryOp kOps[] = {{"<=", Code::le}, {">=", Code::ge}, {"<", Code::lt}, {">", Code::gt}};
    return binary(kOps, &Parser::additive);
  }
  Value additive() {
    static constexpr BinaryOp kOps[] = {{"+", Code::add}, {"-", Code::sub}};
    return binary(kOps, &Parser::multiplicative);
  }
  Value multiplicative() {
    static constexpr BinaryOp kOps[] = {{"*", Code::mul}, {"/", Code::div}, {"%", Code::fmod}};
    return binary(kOps, &Parser::unary);
  }

  Value unary() {
    if (!is("-") && !is("+") && !is("!")) return power();
    const Token& op = tokens_[at_++];
    const Deeper deeper(*this, op);
    Value operand = unary();
    if (op.text == "+") return operand;
    return builder_.apply(op.text == "-" ? Code::neg : Code::lnot, {operand});
  }

  // ^ binds tighter than a unary minus before it (-2^2 is -4) and takes a
  // unary exponent (2^-1), which makes it right-associative (2^3^2 is 512).
  Value power() {
    Value base = primary();
    if (!is("^")) return base;
    const Deeper deeper(*this, tokens_[at_++]);
    Value exponent = unary();
    return builder_.apply(Code::pow, {base, exponent});
  }

  Value primary() {
    const Token& token = peek();
    if (token.kind == Token::number) {
      ++at_;
      return ProgramBuilder::constant(token.value);
    }
    if (token.kind == Token::name) {
      ++at_;
      return is("(") ? call(token) : name(token);
    }
    if (is("(")) {
      const Token& open = tokens_[at_++];
      const Deeper deeper(*this, open);
      Value inside = ternary();
      if (!accept(")")) fail(peek(), "expected ')' to close the '(' at " + position_text(text_, open.column));
      return inside;
    }
    missing_operand(token);
  }

  Value name(const Token& token) {
    if (const NameWord* n = find_name(token.text))
      return n->constant ? ProgramBuilder::constant(n->value) : builder_.name(n->name);
    if (find_function(token.text))
      fail(token, quoted(token.text) + " is a function: " + std::string(token.text) + "(...)");
    if (foreign_function(token.text)) not_ours(token);
    fail(token, "unknown name " + quoted(token.text) + suggestion(token.text, false));
  }

  Value call(const Token& word) {
    const FunctionWord* f = find_function(word.text);
    if (!f) {
      if (find_name(word.text)) fail(word, quoted(word.text) + " is not a function");
      if (foreign_function(word.text)) not_ours(word);
      fail(word, "unknown function " + quoted(word.text) + suggestion(word.text, true));
    }
    const Token& open = tokens_[at_++];
    const Deeper deeper(*this, open);
    std::vector<Value> args;
    if (!accept(")")) {
      do args.push_back(ternary());
      while (accept(","));
      if (!accept(")")) fail(peek(), "expected ',' or ')' to close the '(' at " + position_text(text_, open.column));
    }
    const int given = static_cast<int>(args.size());
    if (given != f->arity && !(f->more && given > f->arity))
      fail(word, quoted(word.text) + " takes " + std::to_string(f->arity) + (f->more ? " or more" : "") +
                     (f->arity == 1 && !f->more ? " argument" : " arguments") + ", got " + std::to_string(given));
    if (!f->more) return builder_.apply(f->code, args);
    Value folded = args[0];
    for (int i = 1; i < given; ++i) folded = builder_.apply(f->code, {folded, args[static_cast<std::size_t>(i)]});
    return folded;
  }

  [[noreturn]] void not_ours(const Token& word) const {
    fail(word, quoted(word.text) + " is not a --map function (those are " + function_words() + ")");
  }

  static std::string suggestion(std::string_view word, bool used_as_call) {
    const auto near = nearest_word(word, used_as_call);
    return near ? " (did you mean " + quoted(*near) + "?)" : "";
  }

  [[noreturn]] void missing_operand(const Token& token) const {
    const bool first = at_ == start_;
    if (first && (token.kind == Token::end || token.text == ";")) fail(token, "empty expression");
    // Python's and Fortran's power, v**2 (written together, not "b * * 2").
    if (!first && token.text == "*" && tokens_[at_ - 1].text == "*" && tokens_[at_ - 1].column + 1 == token.column)
      fail(token, "expected an operand after '*' (the power is '^': v^2)");
    if (!first) fail(token, "expected an operand after " + quoted(tokens_[at_ - 1].text));
    if (token.text == ")") fail(token, "unexpected ')'");
    fail(token, "expected an operand before " + quoted(token.text));
  }

  [[noreturn]] void unexpected_after_expression() const {
    const Token& token = peek();
    if (token.kind != Token::symbol || token.text == "(") fail(token, "expected an operator before " + quoted(token.text));
    if (token.text == ":") fail(token, "unexpected ':' (no '?' before it)");
    fail(token, "unexpected " + quoted(token.text));
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t at_ = 0;     // the next token
  std::size_t start_ = 0;  // the current expression's first token
  int depth_ = 0;
  ProgramBuilder builder_;
};

}  // namespace

std::vector<Program> compile_map(std::string_view text) {
  if (text.size() > kLongestText)
    throw SyntaxError(std::string(text.substr(0, kLongestText)) + "...", static_cast<int>(kLongestText) + 1,
                      "longer than " + std::to_string(kLongestText) + " bytes");
  return Parser(text, tokenize(text)).programs();
}

}  // namespace gpuimg::expr
