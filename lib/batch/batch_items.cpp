#include "batch_items.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <system_error>

#include "codec.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "number_text.hpp"

namespace gpuimg {
namespace {

namespace fs = std::filesystem;

struct Found {
  std::string input;
  std::string relative;
  bool listed = false;  // from --files-from
};

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// Whether `dir` is the folder `output` names (both existing): outputs of an
// earlier run must not become inputs of the next.
bool is_output_folder(const fs::path& dir, const fs::path& output) {
  std::error_code ec;
  return fs::equivalent(dir, output, ec);
}

void walk(const std::string& folder, bool recursive, const std::string& output_dir,
          const std::function<bool()>& stop, std::vector<Found>& found) {
  const std::vector<std::string> readable = readable_extensions();
  std::error_code ec;
  auto take = [&](const fs::directory_entry& e) {
    if (stop && stop()) throw Interrupted();
    std::error_code type_ec;
    if (e.is_regular_file(type_ec) && contains(readable, lower_extension(e.path().string())))
      found.push_back({e.path().string(), e.path().lexically_relative(folder).string()});
  };
  if (!recursive) {
    fs::directory_iterator it(folder, ec);
    if (ec) throw InputError(folder, "cannot list the folder: " + ec.message());
    for (const fs::directory_entry& e : it) take(e);
    return;
  }
  fs::recursive_directory_iterator it(folder, ec);
  if (ec) throw InputError(folder, "cannot list the folder: " + ec.message());
  for (auto end = fs::recursive_directory_iterator(); it != end; it.increment(ec)) {
    if (ec) throw InputError(folder, "cannot list the folder: " + ec.message());
    std::error_code type_ec;
    if (it->is_directory(type_ec) && is_output_folder(it->path(), output_dir)) {
      it.disable_recursion_pending();
      continue;
    }
    take(*it);
  }
}

bool has_dot_dot(const fs::path& path) {
  return std::any_of(path.begin(), path.end(), [](const fs::path& part) { return part == ".."; });
}

// "a/b.png" -> "b.png"; "missing/" -> "missing", so that a folder INPUT
// that does not exist fails as "no such file" rather than as a bad name.
std::string file_name(const std::string& path) {
  const fs::path p(path);
  return (p.has_filename() ? p.filename() : p.parent_path().filename()).string();
}

// The input's extension as typed where gpuimg writes that format (so a
// script that gave IMG_1.JPG finds out/IMG_1.JPG), else png.
std::string output_extension(const std::string& input, const std::string& format) {
  if (!format.empty()) return format;
  const std::string ext = lower_extension(input);
  return contains(writable_extensions(), ext) ? input.substr(input.size() - ext.size()) : "png";
}

// A listed path as it is mirrored: as listed where relative; where
// absolute and inside the base (the current folder, which find "$PWD"
// lists, or --files-base) as one of `bases` spells it, relative to it; any
// other absolute path as it is, for map_output to refuse (the base itself
// too, named as listed).
std::string listed_relative(const std::string& path, const std::vector<fs::path>& bases) {
  const fs::path p(path);
  if (!p.is_absolute()) return path;
  for (const fs::path& base : bases) {
    const fs::path rel = p.lexically_normal().lexically_relative(base);
    if (!rel.empty() && rel != "." && *rel.begin() != "..") return rel.string();
  }
  return path;
}

// The listed paths' base as a list may spell it: as given and with its
// links resolved; for the current folder, as the shell has it ($PWD, which
// find "$PWD" lists, where it still names this folder) and as it is. None
// where the current folder is gone.
std::vector<fs::path> base_spellings(const std::string& listed_base) {
  std::error_code ec;
  std::vector<fs::path> bases;
  if (listed_base.empty()) {
    if (const char* pwd = std::getenv("PWD"); pwd && fs::path(pwd).is_absolute() && same_file(pwd, "."))
      bases.push_back(fs::path(pwd).lexically_normal());
    if (fs::path here = fs::current_path(ec); !ec) bases.push_back(here);
  } else {
    if (fs::path given = fs::absolute(listed_base, ec); !ec) bases.push_back(given.lexically_normal());
    if (fs::path real = fs::canonical(listed_base, ec); !ec) bases.push_back(real);
  }
  return bases;
}

}  // namespace

std::string named_file_output(const std::string& input, const std::string& output_dir, const std::string& format) {
  return map_output(output_dir, file_name(input), output_extension(input, format));
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  const std::string_view whole = text;
  const std::optional<int> k = read_integer<int>(whole.substr(0, slash));
  const std::optional<int> n = slash == std::string::npos ? std::nullopt : read_integer<int>(whole.substr(slash + 1));
  if (!k || !n || *k < 1 || *k > *n) throw UsageError("--shard: must be K/N with 1 <= K <= N, got '" + text + "'");
  return {*k, *n};
}

std::string map_output(const std::string& output_dir, const std::string& relative, const std::string& extension) {
  const fs::path rel = fs::path(relative).lexically_normal();
  const bool escapes = rel.empty() || rel.is_absolute() || rel.has_root_name() || rel.filename().empty() ||
                       rel.filename() == "." || has_dot_dot(rel);
  if (escapes) throw OutputError(relative, "would be written outside the output folder");
  fs::path out = fs::path(output_dir) / rel;
  out.replace_extension(extension);
  return out.string();
}

std::vector<BatchItem> plan_batch(const Sources& sources, const std::string& output_dir, const std::string& format,
                                  const std::function<bool()>& stop) {
  std::vector<Found> found;
  for (const std::string& path : sources.paths) {
    if (stop && stop()) throw Interrupted();
    std::error_code ec;
    if (fs::is_directory(path, ec))
      walk(path, sources.recursive, output_dir, stop, found);
    else
      found.push_back({path, file_name(path)});
  }
  const std::vector<fs::path> bases = sources.listed.empty() ? std::vector<fs::path>{} : base_spellings(sources.listed_base);
  for (const std::string& path : sources.listed) {
    std::string input = path;
    if (!sources.listed_base.empty() && fs::path(path).is_relative()) {
      // Tidied (base/./a.png: base/a.png), but for a path with a '..',
      // which is read as spelt: a link before the '..' leads elsewhere
      // than lexically_normal's answer.
      const fs::path joined = fs::path(sources.listed_base) / path;
      input = (has_dot_dot(path) ? joined : joined.lexically_normal()).string();
    }
    found.push_back({input, listed_relative(path, bases), true});
  }
  const std::string listed_hint =
      " (give a relative path without '..', or an absolute one inside " +
      (sources.listed_base.empty() ? std::string("the current folder, or name their folder with --files-base")
                                   : "--files-base's folder, " + sources.listed_base) +
      ")";
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.input < b.input; });
  found.erase(std::unique(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.input == b.input; }),
              found.end());

  std::vector<BatchItem> items;
  std::map<std::string, std::size_t> taken;  // output -> the item writing it
  for (const Found& f : found) {
    BatchItem item{f.input, "", ""};
    // Only a listed path can be "-" here (the command line refuses it):
    // read, it would be stdin, not a file.
    if (f.input == "-") {
      item.problem = "-: stdin takes one image, not a batch's (a file named - is ./-)";
      items.push_back(item);
      continue;
    }
    // A blank that ends a line is part of the name, and invisible in the
    // message that the file is missing.
    if (std::error_code ec; f.listed && !f.input.empty() && std::isblank(static_cast<unsigned char>(f.input.back())) &&
                            !fs::exists(fs::symlink_status(f.input, ec))) {
      item.problem = f.input + ": no such file (its line in the list ends in a space or tab, which is part of the name)";
      items.push_back(item);
      continue;
    }
    try {
      item.output = map_output(output_dir, f.relative, output_extension(f.input, format));
      const auto [it, fresh] = taken.emplace(item.output, items.size());
      if (!fresh) {
        BatchItem& earlier = items[it->second];
        // One file given twice, spelt two ways (in/x.png, ./in/x.png; a
        // folder and a file in it): once, as a path given twice is. Where
        // one of the two is not there, that one is missing, not in a clash.
        std::error_code ec;
        if (fs::equivalent(f.input, earlier.input, ec)) continue;
        const auto there = [&](const std::string& path) { return fs::exists(fs::symlink_status(path, ec)); };
        if (!there(f.input)) {
          item.problem = f.input + ": no such file";
        } else if (!there(earlier.input)) {
          earlier.problem = earlier.input + ": no such file";
          it->second = items.size();
        } else {
          item.problem = f.input + ": its output " + item.output + " is also " + earlier.input + "'s";
        }
      }
    } catch (const OutputError& e) {
      item.problem = e.what() + (f.listed ? listed_hint : "");  // names the listed path, which is the input
    }
    items.push_back(item);
  }
  return items;
}

std::vector<BatchItem> take_shard(const std::vector<BatchItem>& items, Shard shard) {
  std::vector<BatchItem> mine;
  for (std::size_t i = static_cast<std::size_t>(shard.index - 1); i < items.size(); i += shard.count)
    mine.push_back(items[i]);
  return mine;
}

}  // namespace gpuimg
