#include "near_miss.hpp"

#include <algorithm>

#include "ascii_case.hpp"

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

std::optional<std::string> near_miss(const std::string& typed, const std::vector<std::string>& known_names) {
  // Letters' case aside (--INVERT, --Gray): the names are compared folded
  // and given back as spelt.
  const std::string word = ascii_lower(typed);
  std::vector<std::string> known;
  for (const std::string& k : known_names) known.push_back(ascii_lower(k));
  const auto spelt = [&](const std::string* k) { return known_names[static_cast<std::size_t>(k - known.data())]; };
  // A name cut short (--gray, --sharp, --dev): the names it begins, where
  // it has three characters or more after the dashes, if the shortest of
  // them begins every other (--device, --devices); before the nearest,
  // which for --sharp would be --shard. Names it begins that part ways
  // (--no-: --no-recursive, --no-auto-orient) suggest nothing.
  if (const auto same = std::find(known.begin(), known.end(), word); same != known.end()) return spelt(&*same);
  const std::size_t after_dashes = word.size() - std::min(word.find_first_not_of('-'), word.size());
  std::vector<const std::string*> begun;
  if (after_dashes >= 3)
    for (const std::string& k : known)
      if (k.size() > word.size() && k.compare(0, word.size(), word) == 0) begun.push_back(&k);
  if (!begun.empty()) {
    const std::string* shortest = *std::min_element(
        begun.begin(), begun.end(), [](const std::string* a, const std::string* b) { return a->size() < b->size(); });
    for (const std::string* k : begun)
      if (k->compare(0, shortest->size(), *shortest) != 0) return std::nullopt;
    return spelt(shortest);
  }
  const std::string* best = nullptr;
  std::size_t best_distance = std::min<std::size_t>(2, (word.size() - 1) / 2) + 1;
  for (const std::string& k : known)
    if (const std::size_t d = distance(word, k); d < best_distance) best = &k, best_distance = d;
  if (!best) return std::nullopt;
  return spelt(best);
}

}  // namespace gpuimg
