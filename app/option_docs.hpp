#pragma once
// The options of a command as the man page and the shell completions list
// them, read from the CLI11 declarations --help prints, so none of the
// three can list what the others do not.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpuimg {

struct OptionDoc {
  std::vector<std::string> long_names;   // "verbose"
  std::vector<std::string> short_names;  // "v"
  std::string value;                     // "N", "R"; empty for a flag
  std::string description;
  std::string group;
};

// Every option `app` shows in --help (not positionals, --help itself, or the
// hidden ones), in the order declared.
inline std::vector<OptionDoc> option_docs(const CLI::App& app) {
  std::vector<OptionDoc> out;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_positional() || o->get_group().empty() || o->get_lnames() == std::vector<std::string>{"help"})
      continue;
    out.push_back({o->get_lnames(), o->get_snames(), o->get_items_expected_max() == 0 ? "" : o->get_type_name(),
                   o->get_description(), o->get_group()});
  }
  return out;
}

}  // namespace gpuimg
