#pragma once
// Words gpuimg reads without regard to case (format names, extensions,
// filter names, --map's words): ASCII letters lowered, every other byte
// kept, whatever the C library's locale.
#include <string>
#include <string_view>

namespace gpuimg {

inline std::string ascii_lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return lower;
}

}  // namespace gpuimg
