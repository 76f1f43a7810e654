#include "printable.hpp"

#include <cstddef>
#include <stdexcept>

namespace gpuimg {
namespace {

unsigned char byte_at(std::string_view s, std::size_t i) { return static_cast<unsigned char>(s[i]); }

// The length of the well-formed UTF-8 sequence starting at `at`, or 0.
// The Unicode Standard's table 3-7: the second byte's range depends on the
// first, which is what rules out overlong forms, surrogates (ED A0..BF)
// and code points past U+10FFFF.
std::size_t utf8_length(std::string_view s, std::size_t at) {
  struct Lead {
    unsigned char first, last;  // lead bytes this row covers
    std::size_t length;
    unsigned char second_lo, second_hi;
  };
  static constexpr Lead kLeads[] = {{0xc2, 0xdf, 2, 0x80, 0xbf}, {0xe0, 0xe0, 3, 0xa0, 0xbf},
                                    {0xe1, 0xec, 3, 0x80, 0xbf}, {0xed, 0xed, 3, 0x80, 0x9f},
                                    {0xee, 0xef, 3, 0x80, 0xbf}, {0xf0, 0xf0, 4, 0x90, 0xbf},
                                    {0xf1, 0xf3, 4, 0x80, 0xbf}, {0xf4, 0xf4, 4, 0x80, 0x8f}};
  const unsigned char lead = byte_at(s, at);
  for (const Lead& row : kLeads) {
    if (lead < row.first || lead > row.last) continue;
    if (at + row.length > s.size() || byte_at(s, at + 1) < row.second_lo || byte_at(s, at + 1) > row.second_hi)
      return 0;
    for (std::size_t i = 2; i < row.length; ++i)
      if (byte_at(s, at + i) < 0x80 || byte_at(s, at + i) > 0xbf) return 0;
    return row.length;
  }
  return 0;
}

// Well-formed, printable-looking, and still able to mislead: the bidi
// embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069) and
// marks (U+200E, U+200F, U+061C) reorder the text around them, so a name
// with U+202E in "photo\u202Egnp.exe" reads as "photoexe.png"; the line
// and paragraph separators (U+2028, U+2029) end a line in editors and in
// some terminals' copy and paste. `n` is the sequence's length.
bool reorders_or_breaks(std::string_view s, std::size_t at, std::size_t n) {
  if (n == 2) return byte_at(s, at) == 0xd8 && byte_at(s, at + 1) == 0x9c;  // U+061C
  if (n != 3 || byte_at(s, at) != 0xe2) return false;
  const unsigned char second = byte_at(s, at + 1), third = byte_at(s, at + 2);
  if (second == 0x80) return third == 0x8e || third == 0x8f || (third >= 0xa8 && third <= 0xae);
  return second == 0x81 && third >= 0xa6 && third <= 0xa9;
}

void append_escape(std::string& out, unsigned char b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

}  // namespace

std::string printable(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (std::size_t at = 0; at < bytes.size();) {
    const unsigned char b = byte_at(bytes, at);
    const std::size_t n = b >= 0x80 ? utf8_length(bytes, at) : 0;
    const bool c1_control = n == 2 && b == 0xc2 && byte_at(bytes, at + 1) < 0xa0;
    if (n > 0 && !c1_control && !reorders_or_breaks(bytes, at, n)) {
      out.append(bytes.substr(at, n));
      at += n;
      continue;
    }
    if (b == '\\')
      out += "\\\\";
    else if (b == '\t')
      out += "\\t";
    else if (b == '\n')
      out += "\\n";
    else if (b == '\r')
      out += "\\r";
    else if (b >= 0x20 && b < 0x7f)
      out += static_cast<char>(b);
    else
      append_escape(out, b);  // one byte; the scan resumes at the next, so a broken sequence hides nothing after it
    ++at;
  }
  return out;
}

std::string bytes_of_printable(std::string_view text) {
  const auto hex = [&](std::size_t at) -> int {
    const char c = at < text.size() ? text[at] : '\0';
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw std::runtime_error("'\\x' without two lowercase hex digits");
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text[at] != '\\') {
      out += text[at];
      continue;
    }
    const char e = ++at < text.size() ? text[at] : '\0';
    if (e == '\\' || e == 't' || e == 'n' || e == 'r') {
      out += e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\\';
    } else if (e == 'x') {
      out += static_cast<char>(16 * hex(at + 1) + hex(at + 2));
      at += 2;
    } else {
      throw std::runtime_error("a '\\' that escapes nothing");
    }
  }
  return out;
}

}  // namespace gpuimg
