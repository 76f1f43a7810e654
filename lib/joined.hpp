#pragma once
// Lists written into one line of a message or a script:
// joined({"a", "b", "c"}, ", ") is "a, b, c"; with `last` " or ", "a, b or c".
#include <string>
#include <string_view>
#include <vector>

namespace gpuimg {

inline std::string joined(const std::vector<std::string>& items, std::string_view separator,
                          std::string_view last = {}) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() && !last.empty() ? last : separator;
    out += items[i];
  }
  return out;
}

}  // namespace gpuimg
