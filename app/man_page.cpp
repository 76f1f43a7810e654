#include "man_page.hpp"

#include <sstream>

#include "option_docs.hpp"

namespace gpuimg {
namespace {

// Text as roff shows it: a backslash is \e, a hyphen \- (so that searching
// the page for --blur finds it, and it is not hyphenated), and a line
// starting with . or ' is not a request.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string option_entries(const CLI::App& app) {
  std::ostringstream out;
  std::string group;
  for (const OptionDoc& o : option_docs(app)) {
    if (o.group != group) {
      group = o.group;
      out << ".SS " << roff(group) << "\n";
    }
    std::string names;
    for (const std::string& s : o.short_names) names += (names.empty() ? "" : ", ") + ("\\fB\\-" + s + "\\fR");
    for (const std::string& l : o.long_names) names += (names.empty() ? "" : ", ") + ("\\fB\\-\\-" + roff(l) + "\\fR");
    out << ".TP\n" << names << (o.value.empty() ? "" : " \\fI" + roff(o.value) + "\\fR") << "\n";
    // One paragraph per line of the description: an op's parameters each have one.
    std::istringstream lines(o.description);
    bool first = true;
    for (std::string line; std::getline(lines, line); first = false) out << (first ? "" : ".br\n") << roff(line) << "\n";
  }
  return out.str();
}

}  // namespace

std::string man_page(const CLI::App& app) {
  std::ostringstream out;
  // The description's first line names the tool; the rest is the usage.
  const std::string description = app.get_description();
  const std::size_t newline = description.find('\n');
  const std::string name_line = description.substr(0, newline);
  out << ".TH GPUIMG 1 \"\" \"gpuimg " << GPUIMG_VERSION << "\" \"User Commands\"\n"
      << ".SH NAME\n" << roff(name_line.substr(0, name_line.find(':'))) << " \\- "
      << roff(name_line.substr(name_line.find(':') + 2)) << "\n.SH SYNOPSIS\n.nf\n";
  std::istringstream usage(newline == std::string::npos ? "" : description.substr(newline + 1));
  for (std::string line; std::getline(usage, line);) {
    const std::size_t from = line.find("gpuimg");
    out << roff(line.substr(from == std::string::npos ? 0 : from)) << "\n";
  }
  out << ".fi\n.SH DESCRIPTION\n.nf\n" << roff(app.get_footer()) << "\n.fi\n.SH OPTIONS\n" << option_entries(app);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    out << ".SH " << roff("gpuimg " + sub->get_name()) << "\n" << roff(sub->get_description()) << "\n";
    out << option_entries(*sub);
    for (const CLI::App* inner : sub->get_subcommands([](const CLI::App*) { return true; }))
      out << ".SS " << roff("gpuimg " + sub->get_name() + " " + inner->get_name()) << "\n"
          << roff(inner->get_description()) << "\n" << option_entries(*inner);
  }
  out << ".SH SEE ALSO\nThe README and docs/ of gpuimg's sources hold every operation's exact definition.\n";
  return out.str();
}

}  // namespace gpuimg
