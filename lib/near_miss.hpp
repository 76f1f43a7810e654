#pragma once
// "Did you mean": the known name closest to a mistyped one, for the
// unknown-option message and a golden manifest's unknown limit.
#include <optional>
#include <string>
#include <vector>

namespace gpuimg {

// Letters' case aside (the name is given as `known` spells it): the name
// in `known` nearest to `word` by edit distance (insertions, deletions,
// substitutions and swaps of neighbours, each 1), if it is at most 2 and
// under half of `word`'s length, so that a short unrelated
// word is not "corrected"; the first of equals. But where `word`, of three
// characters or more after its dashes, begins known names, the shortest
// of them if it begins all the others, else none.
std::optional<std::string> near_miss(const std::string& word, const std::vector<std::string>& known);

}  // namespace gpuimg
