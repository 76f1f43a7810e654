#include "op_options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "error.hpp"
#include "near_miss.hpp"
#include "number_text.hpp"
#include "param_text.hpp"

namespace gpuimg {
namespace {

std::string default_text(const ParamSpec& p) {
  ParamValue v{};
  v.number = p.default_number;
  v.choice = p.default_choice;
  return param_text(p, v);
}

template <class Op> std::string flag_help() {
  std::string text = Op::summary;
  for (const ParamSpec& p : Op::params)
    text += std::string("\n") + p.name + ": " + p.meaning + ", " + param_form(p) +
            (p.optional ? " (default " + default_text(p) + ")" : "") + ".";
  return text + "\nExample: " + Op::example;
}

// An ImageMagick habit in a value gpuimg refused ("--blur 0x3", "--threshold
// 128"), and what to write instead; empty where the value shows none.
std::string imagemagick_value_hint(const std::string& op, const std::string& value) {
  // A plain decimal number in value[from, to): digits, at most one '.'.
  const auto number = [&](std::size_t from, std::size_t to) {
    if (from >= to || to - from > 12) return false;
    const std::string_view text(value.data() + from, to - from);
    return std::count(text.begin(), text.end(), '.') <= 1 &&
           std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) || c == '.'; }) &&
           std::any_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  };
  const std::size_t x = value.find('x');
  const std::size_t end = std::min(value.find('+'), value.size());
  // RxS: a radius (perhaps empty or 0, "as large as S needs") and a sigma.
  if (x != std::string::npos && x < end && (x == 0 || number(0, x)) && number(x + 1, end)) {
    if (op == "blur") return "; ImageMagick's -blur RxS is a Gaussian of sigma S, here --gaussian S (--blur R is a box)";
    if (op == "gaussian") return "; ImageMagick's RxS is --gaussian S here (the radius follows from S)";
    if (op == "unsharp")
      return "; ImageMagick's -unsharp RxS+A+T is --unsharp S,A,T/2 here (its threshold tests twice the difference)";
    if (op == "sharpen") return "; ImageMagick's -sharpen RxS is closest to --unsharp S here";
    if (op == "median") return "; ImageMagick's NxN window is --median R here, N = 2R + 1 (3x3 is --median 1)";
  }
  // Levels: ImageMagick's numbers count its QuantumRange, whatever the image's depth.
  if (op != "threshold" && op != "levels") return "";
  // The first of the first two numbers (B and W) that reads as a level.
  std::string typed;
  double level = 0;
  for (std::size_t from = 0, field = 0; field < 2 && from < value.size() && level < 2; ++field) {
    const std::size_t to = std::min(value.find(',', from), value.size());
    if (!number(from, to)) return "";
    typed = value.substr(from, to - from);
    level = std::strtod(typed.c_str(), nullptr);
    from = to + 1;
  }
  if (level < 2) return "";
  std::string hint = "; ImageMagick counts levels of its QuantumRange (65535 in its usual Q16 build, 255 in Q8), "
                     "gpuimg a fraction of the range or a percentage";
  char share[64];
  if (level <= 65535) {
    std::snprintf(share, sizeof share, ": %s is %.1f%% of 65535", typed.c_str(), level / 65535 * 100);
    hint += share;
  }
  if (level <= 255) {
    std::snprintf(share, sizeof share, ", %.1f%% of 255", level / 255 * 100);
    hint += share;
  }
  return hint;
}

}  // namespace

std::optional<std::string> op_help(const std::string& name) {
  std::optional<std::string> text;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    if (name == Op::name) text = flag_help<Op>();
  });
  return text;
}

std::vector<std::string> known_options(const CLI::App& app) {
  const std::vector<CLI::App*> subs = app.get_subcommands();
  if (!subs.empty()) return known_options(*subs.front());
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options())
    for (const std::string& name : o->get_lnames()) out.push_back("--" + name);
  return out;
}

std::string param_brief(const ParamSpec& p) {
  std::string range;
  switch (p.type) {
    case ParamType::integer:
    case ParamType::real:
    case ParamType::fraction:
      // ">0" where the least value is excluded: --gamma 0 is refused.
      range = std::string(" (") + (p.min_excluded ? ">" : "") + number_text(p.min) + ".." + number_text(p.max);
      if (p.type == ParamType::fraction) range += " or " + number_text(p.min * 100) + ".." + number_text(p.max * 100) + "%";
      range += ")";
      break;
    case ParamType::choice:
      for (int i = 0; i < p.choice_count; ++i) range += (i ? "|" : " (") + std::string(p.choices[i]);
      range += ")";
      break;
    case ParamType::geometry:
    case ParamType::size:
    case ParamType::odd_size:
    case ParamType::list:
    case ParamType::expression: break;
  }
  const std::string body = p.name + range;
  if (!p.joined) return " " + body;
  return p.optional ? "[" + std::string(1, p.joined) + body + "]" : p.joined + body;
}

OpOptions add_op_options(CLI::App& app, const std::string& group) {
  OpOptions ops;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    const std::string flag = std::string("--") + Op::name;
    // A flag takes no value: "--invert=false" must not quietly add a stage.
    CLI::Option* opt = Op::params.empty() ? app.add_flag(flag)->disable_flag_override()
                                          : app.add_option(flag)
                                                ->expected(static_cast<int>(words_taken<Op>()))
                                                ->type_name(words_form<Op>())
                                                ->allow_extra_args(false);
    opt->description(flag_help<Op>())->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)->group(group);
    ops[opt] = Op::name;
  });
  return ops;
}

Pipeline pipeline_in_order(const CLI::App& app, const OpOptions& ops) {
  // parse_order() lists every occurrence in command-line order; each op
  // option's results() holds its values in the same order.
  Pipeline pipeline;
  std::map<const CLI::Option*, std::size_t> consumed;
  for (const CLI::Option* opt : app.parse_order()) {
    auto it = ops.find(opt);
    if (it == ops.end()) continue;
    std::size_t& at = consumed[opt];
    const std::size_t n = static_cast<std::size_t>(opt->get_expected_min());
    const auto& all = opt->results();
    std::vector<std::string> values;
    if (n > 0) values.assign(all.begin() + at, all.begin() + at + n);
    at += n;
    try {
      pipeline.push_back(parse_stage(it->second, values));
    } catch (const UsageError& e) {
      const std::string hint = values.size() == 1 ? imagemagick_value_hint(it->second, values[0]) : "";
      if (hint.empty()) throw;
      throw UsageError(e.what() + hint, e.detail());
    }
  }
  return pipeline;
}

std::string parse_error_text(const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    const std::string_view required = ": 1 required ", missing = " missing";
    const auto at = what.find(required);
    if (at != std::string::npos && what.size() >= at + required.size() + missing.size() &&
        what.compare(what.size() - missing.size(), missing.size(), missing) == 0)
      return what.substr(0, at) + ": missing its value, " +
             what.substr(at + required.size(), what.size() - missing.size() - at - required.size());
  }
  const auto override_at = what.find(" was given a disallowed flag override");
  if (override_at != std::string::npos) return "--" + what.substr(0, override_at) + " takes no value";
  return what;
}

Pipeline parse_pipeline(const std::vector<std::string>& words, const std::function<void(CLI::App&)>& add_options) {
  CLI::App app;
  app.set_help_flag();
  // As on the command line, a setting given twice takes the last.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  const OpOptions ops = add_op_options(app, "Operations");
  if (add_options) add_options(app);
  std::vector<const char*> argv = {"gpuimg"};
  for (const std::string& w : words) argv.push_back(w.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ExtrasError&) {
    // CLI11 lists the leftovers in reverse; name them in the manifest's order.
    const std::vector<std::string> left = app.remaining();
    std::string named;
    for (const std::string& w : words)
      if (std::find(left.begin(), left.end(), w) != left.end()) named += (named.empty() ? "" : " ") + w;
    for (const std::string& w : words)
      if (w.size() > 2 && w.compare(0, 2, "--") == 0 && std::find(left.begin(), left.end(), w) != left.end()) {
        if (const std::optional<std::string> near = near_miss(w.substr(0, w.find('=')), known_options(app)))
          throw UsageError("not an operation or its value: " + named + "; did you mean " + *near + "?");
        break;
      }
    throw UsageError("not an operation or its value: " + named);
  } catch (const CLI::ParseError& e) {
    throw UsageError(parse_error_text(e));
  }
  return pipeline_in_order(app, ops);
}

}  // namespace gpuimg
