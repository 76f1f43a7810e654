#pragma once
// Reading printable()'s escapes back into the original bytes, for the
// tests; encode_utf8 and is_utf8 (lib/utf8_text.hpp) judge printable() too,
// being written apart from it.
#include <cctype>
#include <optional>
#include <string>

#include "utf8_text.hpp"

namespace gpuimg::test {

// The bytes printable() was given, from what it returned; nullopt where
// `shown` is not something it could have returned.
inline std::optional<std::string> unescape_printable(const std::string& shown) {
  std::string out;
  for (std::size_t at = 0; at < shown.size(); ++at) {
    if (shown[at] != '\\') {
      out += shown[at];
      continue;
    }
    if (++at == shown.size()) return std::nullopt;
    const char c = shown[at];
    if (c == '\\') out += '\\';
    else if (c == 't') out += '\t';
    else if (c == 'n') out += '\n';
    else if (c == 'r') out += '\r';
    else if (c == 'x' && at + 2 < shown.size() && std::isxdigit(static_cast<unsigned char>(shown[at + 1])) &&
             std::isxdigit(static_cast<unsigned char>(shown[at + 2]))) {
      out += static_cast<char>(std::stoi(shown.substr(at + 1, 2), nullptr, 16));
      at += 2;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace gpuimg::test
