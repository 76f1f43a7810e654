#include "completions.hpp"

#include <sstream>
#include <vector>

#include "option_docs.hpp"

namespace gpuimg {
namespace {

std::vector<const CLI::App*> subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

// "--blur --invert ... -v" for the command, each option once.
std::string option_words(const CLI::App& app) {
  std::string words;
  for (const OptionDoc& o : option_docs(app)) {
    for (const std::string& l : o.long_names) words += (words.empty() ? "--" : " --") + l;
    for (const std::string& s : o.short_names) words += " -" + s;
  }
  return words;
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

std::string bash(const CLI::App& app) {
  std::ostringstream out;
  out << "# bash completion for gpuimg, written by gpuimg --completion bash\n"
      << "_gpuimg() {\n  local cur=${COMP_WORDS[COMP_CWORD]} words\n  case ${COMP_WORDS[1]} in\n";
  for (const CLI::App* sub : subcommands(app)) {
    std::string words = option_words(*sub);
    for (const CLI::App* inner : subcommands(*sub)) words += " " + inner->get_name();
    out << "    " << sub->get_name() << ") words=" << single_quoted(words, false) << " ;;\n";
  }
  std::string top = option_words(app);
  for (const CLI::App* sub : subcommands(app)) top += " " + sub->get_name();
  out << "    *) words=" << single_quoted(top, false) << " ;;\n  esac\n"
      << "  if [[ $cur == -* || $COMP_CWORD -eq 1 ]]; then\n"
      << "    mapfile -t COMPREPLY < <(compgen -W \"$words\" -- \"$cur\")\n  fi\n"
      << "  [[ $cur == -* ]] || mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\")\n}\n"
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

std::string zsh(const CLI::App& app) {
  std::ostringstream out;
  out << "#compdef gpuimg\n# zsh completion for gpuimg, written by gpuimg --completion zsh\n"
      << "case $words[2] in\n";
  for (const CLI::App* sub : subcommands(app)) {
    out << "  " << sub->get_name() << ") _arguments -s" << zsh_specs(*sub) << " \\\n    '*:file:_files'";
    for (const CLI::App* inner : subcommands(*sub)) out << " \\\n    " << single_quoted("*:command:(" + inner->get_name() + ")", false);
    out << " ;;\n";
  }
  std::string subs;
  for (const CLI::App* sub : subcommands(app)) subs += (subs.empty() ? "" : " ") + sub->get_name();
  out << "  *) _arguments -s" << zsh_specs(app) << " \\\n    " << single_quoted("1:command or INPUT:(" + subs + ")", false)
      << " \\\n    '*:file:_files' ;;\nesac\n";
  return out.str();
}

std::string fish_lines(const CLI::App& app, const std::string& condition) {
  std::string out;
  for (const OptionDoc& o : option_docs(app)) {
    out += "complete -c gpuimg" + condition;
    for (const std::string& l : o.long_names) out += " -l " + l;
    for (const std::string& s : o.short_names) out += " -s " + s;
    out += (o.value.empty() ? "" : " -r") + std::string(" -d ") + single_quoted(summary(o.description), true) + "\n";
  }
  return out;
}

std::string fish(const CLI::App& app) {
  std::string out = "# fish completion for gpuimg, written by gpuimg --completion fish\n";
  std::string subs;
  for (const CLI::App* sub : subcommands(app)) subs += (subs.empty() ? "" : " ") + sub->get_name();
  out += "complete -c gpuimg -n __fish_use_subcommand -a " + single_quoted(subs, true) + "\n";
  out += fish_lines(app, " -n " + single_quoted("not __fish_seen_subcommand_from " + subs, true));
  for (const CLI::App* sub : subcommands(app)) {
    const std::string when = " -n " + single_quoted("__fish_seen_subcommand_from " + sub->get_name(), true);
    out += fish_lines(*sub, when);
    for (const CLI::App* inner : subcommands(*sub))
      out += "complete -c gpuimg" + when + " -a " + inner->get_name() + " -d " +
             single_quoted(summary(inner->get_description()), true) + "\n";
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
