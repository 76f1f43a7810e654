#include "near_miss.hpp"

#include <algorithm>

namespace gpuimg {
namespace {

// Optimal string alignment distance: Levenshtein plus the swap of two
// neighbours, the commonest typing slip.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> near_miss(const std::string& word, const std::vector<std::string>& known) {
  // A name cut short (--gray, --sharp): the one known name it starts, with
  // at least three letters after the dashes; before the nearest, which
  // for --sharp would be --shard.
  std::optional<std::string> best;
  const std::size_t letters = word.size() - std::min(word.find_first_not_of('-'), word.size());
  int starts = 0;
  for (const std::string& k : known)
    if (letters >= 3 && k.size() > word.size() && k.compare(0, word.size(), word) == 0) best = k, ++starts;
  if (starts == 1) return best;
  best.reset();
  std::size_t best_distance = std::min<std::size_t>(2, (word.size() - 1) / 2) + 1;
  for (const std::string& k : known)
    if (const std::size_t d = distance(word, k); d < best_distance) best = k, best_distance = d;
  return best;
}

}  // namespace gpuimg
