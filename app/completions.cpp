#include "completions.hpp"

#include <sstream>
#include <vector>

#include "joined.hpp"
#include "option_docs.hpp"

namespace gpuimg {
namespace {

std::vector<const CLI::App*> subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

// A command the scripts tell apart, by the subcommand words typed: the
// top level ({}), compare, golden, golden check, ... Each offers its own
// options and subcommands and no other's, as its parser takes them.
struct Context {
  std::vector<std::string> path;  // {"golden", "check"}
  const CLI::App* app;
};

// Every command at every depth, each before its subcommands: golden's and
// report's options are those of their inner commands (check, update, merge).
void add_contexts(const CLI::App& app, const std::vector<std::string>& path, std::vector<Context>& out) {
  out.push_back({path, &app});
  for (const CLI::App* sub : subcommands(app)) {
    std::vector<std::string> inner = path;
    inner.push_back(sub->get_name());
    add_contexts(*sub, inner, out);
  }
}

std::vector<Context> contexts(const CLI::App& app) {
  std::vector<Context> out;
  add_contexts(app, {}, out);
  return out;
}

// "/golden/check": how the bash and zsh scripts name a context, built a
// word at a time as they read the line; empty for the top level.
std::string key(const Context& c) {
  std::string k;
  for (const std::string& w : c.path) k += "/" + w;
  return k;
}

// {"--blur", "--invert", ..., "-v"}: the command's options, each once.
std::vector<std::string> option_words(const CLI::App& app) {
  std::vector<std::string> words;
  for (const OptionDoc& o : option_docs(app)) {
    for (const std::string& l : o.long_names) words.push_back("--" + l);
    for (const std::string& s : o.short_names) words.push_back("-" + s);
  }
  return words;
}

std::vector<std::string> subcommand_words(const CLI::App& app) {
  std::vector<std::string> words;
  for (const CLI::App* sub : subcommands(app)) words.push_back(sub->get_name());
  return words;
}

// Whether the command takes file arguments (INPUT, MANIFEST, REPORT...):
// golden and report alone take nothing but their subcommand's word.
bool takes_paths(const CLI::App& app) {
  for (const CLI::Option* o : app.get_options())
    if (o->get_positional()) return true;
  return false;
}

// The description's first line, as a one-line hint.
std::string summary(const std::string& description) { return description.substr(0, description.find('\n')); }

// Inside single quotes, in the shell's own way: fish escapes with \', zsh
// and bash close the quotes around an escaped one.
std::string single_quoted(const std::string& text, bool fish) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? (fish ? "\\'" : "'\\''") : (fish && c == '\\' ? "\\\\" : std::string(1, c));
  return out + "'";
}

// The case pattern matching any context's key but the top level's:
// "/compare|/golden|/golden/check|...".
std::string nested_keys(const std::vector<Context>& all) {
  std::string out;
  for (const Context& c : all)
    if (!c.path.empty()) out += (out.empty() ? "" : "|") + key(c);
  return out;
}

std::string bash(const CLI::App& app) {
  const std::vector<Context> all = contexts(app);
  std::ostringstream out;
  out << "# bash completion for gpuimg, written by gpuimg --completion bash\n"
      << "_gpuimg() {\n  local cur=${COMP_WORDS[COMP_CWORD]} at= i opts subs paths\n"
      << "  # The subcommand words typed, each one its parent takes: at=/golden/check.\n"
      << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
      << "    case $at/${COMP_WORDS[i]} in\n      " << nested_keys(all) << ") at+=/${COMP_WORDS[i]} ;;\n"
      << "    esac\n  done\n  case $at in\n";
  for (const Context& c : all)
    out << "    " << (c.path.empty() ? "''" : key(c)) << ") opts=" << single_quoted(joined(option_words(*c.app), " "), false)
        << " subs=" << single_quoted(joined(subcommand_words(*c.app), " "), false)
        << " paths=" << (takes_paths(*c.app) ? 1 : 0) << " ;;\n";
  // A subcommand's word comes first: at the top level, before any INPUT.
  out << "  esac\n  COMPREPLY=()\n"
      << "  if [[ $cur == -* ]]; then\n"
      << "    mapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\")\n"
      << "    return 0\n  fi\n"
      << "  if [[ -n $at || $COMP_CWORD -eq 1 ]]; then\n"
      << "    mapfile -t COMPREPLY < <(compgen -W \"$subs\" -- \"$cur\")\n  fi\n"
      << "  if ((paths)); then\n"
      << "    mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\")\n  fi\n  return 0\n}\n"
      << "complete -o filenames -F _gpuimg gpuimg\n";
  return out.str();
}

// zsh's _arguments specs: '--blur[Box blur ...]:R:' ; its brackets and
// colons escaped.
std::string zsh_specs(const CLI::App& app) {
  std::string out;
  for (const OptionDoc& o : option_docs(app)) {
    std::string hint;
    for (const char c : summary(o.description)) {
      if (c == '[' || c == ']' || c == ':' || c == '\\') hint += '\\';
      hint += c;
    }
    std::vector<std::string> names;
    for (const std::string& l : o.long_names) names.push_back("--" + l);
    for (const std::string& s : o.short_names) names.push_back("-" + s);
    for (const std::string& n : names)
      out += " \\\n    " + single_quoted("*" + n + "[" + hint + "]" + (o.value.empty() ? "" : ":" + o.value + ":" + (o.value == "FILE" ? "_files" : "")), false);
  }
  return out;
}

// The words after the options: a subcommand's word first where the command
// has subcommands (or, at the top level, INPUT), then files where it takes them.
std::string zsh_arguments(const Context& c) {
  const std::string subs = joined(subcommand_words(*c.app), " ");
  const bool paths = takes_paths(*c.app);
  std::string out;
  if (!subs.empty() && paths)
    out += " \\\n    " + single_quoted("1:command or file:_alternative \"commands:command:(" + subs +
                                       ")\" \"files:file:_files\"", false);
  else if (!subs.empty())
    out += " \\\n    " + single_quoted("1:command:(" + subs + ")", false);
  if (paths) out += " \\\n    '*:file:_files'";
  return out;
}

std::string zsh(const CLI::App& app) {
  const std::vector<Context> all = contexts(app);
  std::ostringstream out;
  out << "#compdef gpuimg\n# zsh completion for gpuimg, written by gpuimg --completion zsh\n"
      << "local at= i from=1\n"
      << "# The subcommand words typed, each one its parent takes: at=/golden/check.\n"
      << "for ((i = 2; i < CURRENT; i++)); do\n"
      << "  case $at/$words[i] in\n    (" << nested_keys(all) << ") at+=/$words[i]; from=$i ;;\n"
      << "  esac\ndone\n"
      << "# _arguments counts positions from the subcommand's word, as from the command's.\n"
      << "words=(\"${(@)words[from,-1]}\")\n(( CURRENT -= from - 1 ))\n"
      << "case $at in\n";
  for (const Context& c : all)
    out << "  (" << (c.path.empty() ? "''" : key(c)) << ") _arguments -s" << zsh_specs(*c.app) << zsh_arguments(c)
        << " ;;\n";
  out << "esac\n";
  return out.str();
}

// When fish is completing in `c`: its subcommand words seen, and none of
// its own subcommands' yet.
std::string fish_condition(const Context& c) {
  std::string out;
  for (const std::string& w : c.path) out += (out.empty() ? "" : "; and ") + ("__fish_seen_subcommand_from " + w);
  const std::string subs = joined(subcommand_words(*c.app), " ");
  if (!subs.empty()) out += (out.empty() ? "" : "; and ") + ("not __fish_seen_subcommand_from " + subs);
  return out;
}

std::string fish(const CLI::App& app) {
  std::string out = "# fish completion for gpuimg, written by gpuimg --completion fish\n";
  for (const Context& c : contexts(app)) {
    const std::string condition = fish_condition(c);
    const std::string when = condition.empty() ? "" : " -n " + single_quoted(condition, true);
    for (const OptionDoc& o : option_docs(*c.app)) {
      out += "complete -c gpuimg" + when;
      for (const std::string& l : o.long_names) out += " -l " + l;
      for (const std::string& s : o.short_names) out += " -s " + s;
      out += (o.value.empty() ? "" : " -r") + std::string(" -d ") + single_quoted(summary(o.description), true) + "\n";
    }
    // At the top level a subcommand's word comes before any INPUT; golden
    // and report take no files, only their subcommand's word.
    const std::string word_when = c.path.empty() ? " -n __fish_use_subcommand" : when;
    const std::string files = takes_paths(*c.app) ? "" : " -f";
    for (const CLI::App* sub : subcommands(*c.app))
      out += "complete -c gpuimg" + word_when + files + " -a " + sub->get_name() + " -d " +
             single_quoted(summary(sub->get_description()), true) + "\n";
  }
  return out;
}

}  // namespace

std::optional<std::string> completion_script(const CLI::App& app, const std::string& shell) {
  if (shell == "bash") return bash(app);
  if (shell == "zsh") return zsh(app);
  if (shell == "fish") return fish(app);
  return std::nullopt;
}

}  // namespace gpuimg
