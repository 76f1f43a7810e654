#include "json_reader.hpp"

#include <cstdlib>

#include "utf8_text.hpp"

namespace gpuimg {

namespace {

class JsonReader {
 public:
  explicit JsonReader(const std::string& text) : s_(text) {}

  Json document() {
    if (!is_utf8(s_)) fail("not UTF-8");
    Json v = value();
    space();
    if (at_ != s_.size()) fail("text after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("invalid JSON at byte " + std::to_string(at_) + ": " + why);
  }
  char peek() const { return at_ < s_.size() ? s_[at_] : '\0'; }
  void space() {
    while (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r') ++at_;
  }
  bool take(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    const std::string ws = w;
    if (s_.compare(at_, ws.size(), ws) != 0) return false;
    at_ += ws.size();
    return true;
  }
  static bool digit(char c) { return c >= '0' && c <= '9'; }

  Json value() {
    space();
    Json v;
    if (take('{')) {
      v.kind = Json::Kind::object;
      space();
      if (take('}')) return v;
      for (;;) {
        space();
        std::string key = string();
        space();
        expect(':');
        v.members.emplace_back(std::move(key), value());
        space();
        if (take('}')) return v;
        expect(',');
      }
    }
    if (take('[')) {
      v.kind = Json::Kind::array;
      space();
      if (take(']')) return v;
      for (;;) {
        v.items.push_back(value());
        space();
        if (take(']')) return v;
        expect(',');
      }
    }
    if (peek() == '"') {
      v.kind = Json::Kind::string;
      v.string = string();
      return v;
    }
    for (const bool b : {true, false})
      if (word(b ? "true" : "false")) {
        v.kind = Json::Kind::boolean;
        v.boolean = b;
        return v;
      }
    if (word("null")) return v;
    return number();
  }

  Json number() {
    const std::size_t start = at_;
    take('-');
    if (!digit(peek())) fail("not a value");
    if (!take('0'))
      while (digit(peek())) ++at_;
    if (take('.')) {
      if (!digit(peek())) fail("no digit after '.'");
      while (digit(peek())) ++at_;
    }
    if (take('e') || take('E')) {
      if (!take('+')) take('-');
      if (!digit(peek())) fail("no digit in the exponent");
      while (digit(peek())) ++at_;
    }
    Json v;
    v.kind = Json::Kind::number;
    v.number = std::strtod(s_.substr(start, at_ - start).c_str(), nullptr);
    return v;
  }

  unsigned hex4() {
    if (at_ + 4 > s_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[at_++];
      const int d = digit(c)                ? c - '0'
                    : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                             : -1;
      if (d < 0) fail("bad \\u escape");
      v = v * 16 + static_cast<unsigned>(d);
    }
    return v;
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (at_ >= s_.size()) fail("unterminated string");
      const char c = s_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("raw control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = at_ < s_.size() ? s_[at_++] : '\0';
      const std::string simple = "\"\\/bfnrt", meant = "\"\\/\b\f\n\r\t";
      if (const auto k = simple.find(e); e != '\0' && k != std::string::npos) {
        out += meant[k];
        continue;
      }
      if (e != 'u') fail("bad escape");
      unsigned cp = hex4();
      if (cp >= 0xdc00 && cp <= 0xdfff) fail("lone low surrogate");
      if (cp >= 0xd800 && cp <= 0xdbff) {
        if (!word("\\u")) fail("lone high surrogate");
        const unsigned low = hex4();
        if (low < 0xdc00 || low > 0xdfff) fail("lone high surrogate");
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
      }
      out += encode_utf8(cp);
    }
  }

  const std::string& s_;
  std::size_t at_ = 0;
};

}  // namespace

Json parse_json(const std::string& text) { return JsonReader(text).document(); }

}  // namespace gpuimg
