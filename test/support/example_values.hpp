#pragma once
// An op's --help example ("--levels 5%,95%,1.2") as its values, split as
// a shell splits it: at blanks, a word in single quotes ('v*(1-x/w)', as
// --help shows an expression) without them; the flag left out.
#include <sstream>
#include <string>
#include <vector>

namespace gpuimg::test {

inline std::vector<std::string> example_values(const std::string& example) {
  std::istringstream words(example);
  std::vector<std::string> values;
  std::string word;
  words >> word;  // the flag
  while (words >> word)
    values.push_back(word.size() >= 2 && word.front() == '\'' && word.back() == '\'' ? word.substr(1, word.size() - 2)
                                                                                     : word);
  return values;
}

}  // namespace gpuimg::test
