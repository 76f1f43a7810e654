#pragma once
// Encoding a code point and a strict well-formedness check that decodes
// each sequence, written apart from lib/printable.cpp (which reads a table
// of lead bytes) so that the tests can judge it with these; the JSON reader
// uses them too.
#include <cstdint>
#include <string>

namespace gpuimg {

// Also encodes surrogates and values past U+10FFFF in the same bit
// pattern, so tests can build those ill-formed sequences.
inline std::string encode_utf8(std::uint32_t cp) {
  const auto b = [](std::uint32_t v) { return static_cast<char>(v); };
  if (cp < 0x80) return {b(cp)};
  if (cp < 0x800) return {b(0xc0 | cp >> 6), b(0x80 | (cp & 0x3f))};
  if (cp < 0x10000) return {b(0xe0 | cp >> 12), b(0x80 | (cp >> 6 & 0x3f)), b(0x80 | (cp & 0x3f))};
  return {b(0xf0 | cp >> 18), b(0x80 | (cp >> 12 & 0x3f)), b(0x80 | (cp >> 6 & 0x3f)), b(0x80 | (cp & 0x3f))};
}

// Whether `s` is well-formed UTF-8: every sequence decodes to a scalar
// value (no surrogate, at most U+10FFFF) in its shortest form.
inline bool is_utf8(const std::string& s) {
  for (std::size_t at = 0; at < s.size();) {
    const auto lead = static_cast<unsigned char>(s[at]);
    // The length from the lead byte's high bits, and the least value that
    // length may carry.
    const std::size_t n = lead < 0x80 ? 1 : lead < 0xc0 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf8 ? 4 : 0;
    if (n == 0) return false;
    const std::uint32_t min = n == 1 ? 0 : n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
    std::uint32_t cp = n == 1 ? lead : lead & (0x7fu >> n);
    if (at + n > s.size()) return false;
    for (std::size_t i = 1; i < n; ++i) {
      const auto c = static_cast<unsigned char>(s[at + i]);
      if ((c & 0xc0) != 0x80) return false;
      cp = cp << 6 | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    at += n;
  }
  return true;
}

// Drops a UTF-8 byte order mark from the start of `text`, which some
// Windows editors write before the first line of a text file.
inline void drop_byte_order_mark(std::string& text) {
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
}

}  // namespace gpuimg
