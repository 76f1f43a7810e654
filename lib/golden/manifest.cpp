#include "manifest.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "error.hpp"

namespace gpuimg {
namespace {

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<std::string> columns(const std::string& line) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t bar; (bar = line.find('|', from)) != std::string::npos; from = bar + 1)
    out.push_back(line.substr(from, bar - from));
  out.push_back(line.substr(from));
  return out;
}

Thresholds parse_limits(const std::string& text) {
  Thresholds limits;
  for (const std::string& field : words(text)) {
    const std::size_t eq = field.find('=');
    const ThresholdSpec* spec = find_threshold(field.substr(0, eq));
    if (eq == std::string::npos || !spec) {
      std::string known;
      for (const ThresholdSpec& s : kThresholds) known += (known.empty() ? "" : ", ") + std::string(s.name);
      throw UsageError("'" + field + "' is not LIMIT=VALUE with a LIMIT of " + known);
    }
    limits.push_back(parse_threshold("", *spec, field.substr(eq + 1)));
  }
  return limits;
}

}  // namespace

Manifest read_manifest(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file || std::filesystem::is_directory(path)) throw InputError(path.string(), "cannot read the manifest");
  Manifest m{path, {}};
  const std::filesystem::path dir = path.parent_path();
  std::set<std::string> names;
  int number = 0;
  for (std::string line; std::getline(file, line);) {
    ++number;
    const std::vector<std::string> all = words(line);
    if (all.empty() || all[0][0] == '#') continue;
    try {
      const std::vector<std::string> cols = columns(line);
      if (cols.size() < 3 || cols.size() > 4) throw UsageError("expected 'NAME | INPUT | ARGS... [| LIMIT=VALUE ...]'");
      const std::vector<std::string> name = words(cols[0]), input = words(cols[1]);
      if (name.size() != 1 || input.size() != 1) throw UsageError("NAME and INPUT must be one word each");
      if (name[0].find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
          std::string::npos)
        throw UsageError("name '" + name[0] + "' may hold only letters, digits and '_'");
      if (!names.insert(name[0]).second) throw UsageError("name '" + name[0] + "' repeats");
      m.cases.push_back({name[0], dir / input[0], dir / (name[0] + ".png"), words(cols[2]),
                         cols.size() == 4 ? parse_limits(cols[3]) : Thresholds{}, number});
    } catch (const UsageError& e) {
      throw InputError(path.string() + ":" + std::to_string(number), e.what());
    }
  }
  if (m.cases.empty()) throw InputError(path.string(), "no cases in the manifest");
  return m;
}

}  // namespace gpuimg
