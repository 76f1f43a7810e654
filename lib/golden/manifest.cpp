#include "manifest.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <sstream>

#include "error.hpp"
#include "file_util.hpp"
#include "near_miss.hpp"
#include "utf8_text.hpp"

namespace gpuimg {
namespace {

// Words between blanks; '...' quotes a part of a word, blanks and '|'
// included (an expression: --map 'v > 0.5 || x < 9'), as a shell does.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  bool quoted = false, in_word = false;
  for (const char c : text) {
    if (c == '\'') {
      quoted = !quoted;
      in_word = true;
    } else if (!quoted && (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f')) {
      if (in_word) out.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quoted) throw UsageError("a quote (') is not closed");
  if (in_word) out.push_back(word);
  return out;
}

// The columns between bars outside quotes.
std::vector<std::string> columns(const std::string& line) {
  std::vector<std::string> out{""};
  bool quoted = false;
  for (const char c : line) {
    if (c == '\'') quoted = !quoted;
    if (c == '|' && !quoted)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// "--map "v * 2"" is three words here, the quotes in them: said beside
// whatever error that makes, since a shell user will write it so.
std::string double_quote_hint(const std::string& line) {
  bool quoted = false;
  for (const char c : line) {
    if (c == '\'') quoted = !quoted;
    if (c == '"' && !quoted) return " (a manifest quotes with '...' alone: a \" is a character of its word)";
  }
  return "";
}

// The fourth column: limits by their names, and the fields of a Scope.
void parse_limits(const std::string& text, const std::filesystem::path& dir, GoldenCase& c) {
  std::set<std::string> given;  // each limit and scope field once a case, but ignore=, which adds up
  for (const std::string& field : words(text)) {
    const std::size_t eq = field.find('=');
    const std::string name = field.substr(0, eq), value = eq == std::string::npos ? "" : field.substr(eq + 1);
    const ThresholdSpec* spec = find_threshold(name);
    if (eq != std::string::npos && name != "ignore" && !given.insert(name).second)
      throw UsageError("'" + name + "' is given twice: a case takes each limit once");
    if (eq != std::string::npos && spec) {
      c.limits.push_back(parse_threshold("", *spec, value));
    } else if (eq != std::string::npos && name == "ignore") {
      c.scope.ignore.push_back(parse_rect("ignore=", value));
    } else if (eq != std::string::npos && name == "mask" && !value.empty()) {
      c.scope.mask = (dir / value).string();
    } else if (eq != std::string::npos && name == "alpha") {
      c.scope.alpha = parse_alpha_rule("alpha=", value);
    } else if (eq != std::string::npos && name == "threshold") {
      c.scope.threshold = parse_colour_threshold("threshold:", value);
    } else if (field == "ignore-aa") {
      c.scope.ignore_aa = true;
    } else {
      std::vector<std::string> names;
      std::string known;
      for (const ThresholdSpec& s : kThresholds) {
        names.emplace_back(s.name);
        known += names.back() + ", ";
      }
      names.insert(names.end(), {"ignore", "mask", "alpha", "threshold", "ignore-aa"});
      // compare's short flags (--psnr for --min-psnr) are no limits' names
      // here: a manifest spells each limit one way.
      std::optional<std::string> near = near_miss(name, names);
      for (const ThresholdSpec& s : kThresholds)
        if (s.alias && name == s.alias) near = std::string(s.name);
      if (near && *near != "ignore-aa" && eq != std::string::npos) *near += "=" + value;
      const bool spaced = field.front() == '=' || (eq == std::string::npos && near && *near == name);
      const std::string hint = field.front() == '#' ? " (a comment takes a whole line)"
                               : spaced            ? " (no spaces around '=')"
                               : near              ? "; did you mean " + *near + "?"
                                                   : "";
      throw UsageError("'" + field + "' is not LIMIT=VALUE with a LIMIT of " + known +
                       "ignore, mask, alpha or threshold, or ignore-aa" + hint);
    }
  }
}

// A manifest is a short text: one that is not (/dev/zero, an image named by
// mistake) is refused from its first bytes, and none is read past 16 MiB.
constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{16} << 20;
constexpr std::size_t kMaxLineBytes = 4096;  // a case is a name, a path, a few operations and limits

std::string read_text(const std::string& path) {
  InputReader reader(path, kMaxManifestBytes, "more than a manifest may hold");
  std::vector<std::uint8_t> bytes;
  for (std::size_t want = 1 << 16;; want = std::min<std::size_t>(bytes.size() * 2, kMaxManifestBytes + 1)) {
    const std::size_t checked = bytes.size();
    reader.read_up_to(bytes, want);
    const auto nul = std::find(bytes.begin() + static_cast<std::ptrdiff_t>(checked), bytes.end(), 0);
    if (nul != bytes.end()) {
      throw InputError(path, "not a text manifest (a NUL byte at byte " + std::to_string(nul - bytes.begin()) + ")");
    }
    if (bytes.size() < want) break;  // the end
    if (bytes.size() > kMaxManifestBytes) reader.read_rest(bytes);  // refuses it, naming the limit
  }
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

Manifest read_manifest(const std::filesystem::path& path, const CaseCheck& check) {
  std::istringstream text(read_text(path.string()));
  return parse_manifest(text, path, check);
}

Manifest parse_manifest(std::istream& text, const std::filesystem::path& path, const CaseCheck& check) {
  Manifest m{path, {}};
  const std::filesystem::path dir = path.parent_path();
  std::set<std::string> names;
  std::vector<InputError> bad;
  std::size_t more = 0;
  int number = 0;
  for (std::string line; std::getline(text, line);) {
    if (++number == 1) drop_byte_order_mark(line);  // no part of the first name
    try {
      if (line.size() > kMaxLineBytes)
        throw UsageError("line of " + std::to_string(line.size()) + " bytes, over the " + std::to_string(kMaxLineBytes) +
                         " a manifest line may hold");
      const std::size_t first = line.find_first_not_of(" \t\r\n\v\f");
      if (first == std::string::npos || line[first] == '#') continue;
      const std::vector<std::string> cols = columns(line);
      if (cols.size() < 3 || cols.size() > 4) throw UsageError("expected 'NAME | INPUT | ARGS... [| LIMIT=VALUE ...]'");
      const std::vector<std::string> name = words(cols[0]), input = words(cols[1]);
      if (name.empty() || (name.size() == 1 && name[0].empty())) throw UsageError("NAME is empty");
      if (input.empty() || (input.size() == 1 && input[0].empty())) throw UsageError("INPUT is empty");
      if (name.size() != 1 || input.size() != 1) throw UsageError("NAME and INPUT must be one word each");
      if (name[0].find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
          std::string::npos)
        throw UsageError("name '" + name[0] + "' may hold only letters, digits and '_'");
      if (!names.insert(name[0]).second) throw UsageError("name '" + name[0] + "' repeats");
      GoldenCase c{name[0], dir / input[0], dir / (name[0] + ".png"), words(cols[2]), {}, {}, number};
      if (cols.size() == 4) parse_limits(cols[3], dir, c);
      if (check) check(c);
      m.cases.push_back(std::move(c));
    } catch (const UsageError& e) {
      if (bad.size() == ManifestError::kMostBadLines)
        ++more;
      else
        bad.emplace_back(path.string() + ":" + std::to_string(number), e.what() + double_quote_hint(line), e.detail());
    }
  }
  if (!bad.empty()) throw ManifestError(std::move(bad), more);
  if (m.cases.empty()) throw InputError(path.string(), "no cases in the manifest");
  return m;
}

}  // namespace gpuimg
