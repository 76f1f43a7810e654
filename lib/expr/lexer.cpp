#include "expr/lexer.hpp"

#include <charconv>
#include <cstdio>
#include <string>

#include "expr/syntax_error.hpp"

namespace gpuimg::expr {
namespace {

bool digit(char ch) { return ch >= '0' && ch <= '9'; }
bool letter(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
// Scripts write a long expression over several lines, indented.
bool blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

std::string hex_byte(char ch) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(ch));
  return buf;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    std::size_t last_end = 0;
    while (true) {
      while (at_ < text_.size() && blank(text_[at_])) ++at_;
      if (at_ == text_.size()) break;
      tokens.push_back(next());
      last_end = at_;
    }
    // Past the last token's line rather than on an empty one after it: the
    // caret of "expected an operand after '*'" goes under the line with '*'.
    const bool line_after = text_.find('\n', last_end) != std::string_view::npos;
    tokens.push_back({Token::end, {}, column(line_after ? last_end : text_.size()), 0});
    return tokens;
  }

 private:
  int column(std::size_t at) const { return static_cast<int>(at) + 1; }
  [[noreturn]] void fail(std::size_t at, const std::string& message) const {
    throw SyntaxError(text_, column(at), message);
  }
  std::size_t skip_digits(std::size_t at) const {
    while (at < text_.size() && digit(text_[at])) ++at;
    return at;
  }
  char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  Token next() {
    const char ch = text_[at_];
    if (digit(ch) || (ch == '.' && digit(at(at_ + 1)))) return number();
    if (letter(ch)) {
      std::size_t end = at_;
      while (end < text_.size() && (letter(text_[end]) || digit(text_[end]))) ++end;
      return take(Token::name, end);
    }
    static constexpr std::string_view kPairs[] = {"<=", ">=", "==", "!=", "&&", "||"};
    for (std::string_view pair : kPairs)
      if (text_.substr(at_, 2) == pair) return take(Token::symbol, at_ + 2);
    if (std::string_view("+-*/%^<>!?:(),;").find(ch) != std::string_view::npos) return take(Token::symbol, at_ + 1);
    if (ch == '=') {
      // "v == = 1": '==' already typed, and the '=' is one too many.
      std::size_t before = at_;
      while (before > 0 && std::string_view(" \t\r\n").find(text_[before - 1]) != std::string_view::npos) --before;
      const bool after_comparison = before > 0 && std::string_view("=<>!").find(text_[before - 1]) != std::string_view::npos;
      fail(at_, after_comparison ? "unexpected '='" : "unexpected '=' (did you mean '=='?)");
    }
    if (ch == '&') fail(at_, "unexpected '&' (did you mean '&&'?)");
    if (ch == '|') fail(at_, "unexpected '|' (did you mean '||'?)");
    // ImageMagick's -fx names a channel u.r or p.r; here it is r.
    if (ch == '.' && at_ > 0 && letter(text_[at_ - 1]))
      fail(at_, "unexpected '.' after a name (ImageMagick's u.r is r here: r, g, b, a are this pixel's channels)");
    if (ch == '.') fail(at_, "expected a digit after '.'");
    if (ch < 0x20 || ch > 0x7e)
      fail(at_, "byte " + hex_byte(ch) + " is not printable ASCII, which expressions are written in");
    fail(at_, std::string("unexpected '") + ch + "'");
  }

  Token take(Token::Kind kind, std::size_t end) {
    const Token token{kind, text_.substr(at_, end - at_), column(at_), 0};
    at_ = end;
    return token;
  }

  // digits [. digits] [e [+-] digits], or . digits: what from_chars reads,
  // and nothing that runs on into a name or a second point.
  Token number() {
    std::size_t end = skip_digits(at_);
    if (at(end) == '.') end = skip_digits(end + 1);
    if (at(end) == 'e' || at(end) == 'E') {
      std::size_t digits = end + 1;
      if (at(digits) == '+' || at(digits) == '-') ++digits;
      if (!digit(at(digits))) fail(digits, "expected the exponent's digits in '" + std::string(text_.substr(at_, digits - at_)) + "'");
      end = skip_digits(digits);
    }
    const std::string_view spelled = text_.substr(at_, end - at_);
    if (at(end) == '.' || letter(at(end)))
      fail(end, "unexpected '" + std::string(1, at(end)) + "' after the number '" + std::string(spelled) + "'");
    double value = 0;
    const auto [ptr, ec] = std::from_chars(spelled.data(), spelled.data() + spelled.size(), value);
    if (ec == std::errc::result_out_of_range) {
      // from_chars says so for underflow too: those are near 0, not errors.
      if (!tiny(spelled)) fail(at_, "the number '" + std::string(spelled) + "' is too large for a double");
      value = 0;
    }
    if (ptr != spelled.data() + spelled.size()) fail(at_, "malformed number '" + std::string(spelled) + "'");
    Token token = take(Token::number, end);
    token.value = value;
    return token;
  }

  // Out of range below rather than above: a negative exponent that outweighs the digits.
  static bool tiny(std::string_view spelled) {
    const std::size_t e = spelled.find_first_of("eE");
    return e != std::string_view::npos && spelled[e + 1] == '-';
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) { return Lexer(text).run(); }

}  // namespace gpuimg::expr
