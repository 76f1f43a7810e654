#include "pipeline.hpp"

#include <algorithm>
#include <string>

#include "error.hpp"
#include "param_text.hpp"

namespace gpuimg {
namespace {

// What an op's check() found wrong (op_spec.hpp), empty where nothing.
std::string problem_text(const char* problem) { return problem ? problem : ""; }
std::string problem_text(std::string problem) { return problem; }

}  // namespace

OpRecord parse_stage(const std::string& name, const std::vector<std::string>& values) {
  OpRecord rec{};
  bool found = false;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    if (found || name != Op::name) return;
    found = true;
    if (values.size() != words_taken<Op>())
      throw UsageError("--" + name + ": expected " + std::to_string(words_taken<Op>()) + " value(s), got " +
                       std::to_string(values.size()));
    ParamValue parsed[Op::params.size() + 1] = {};
    std::size_t word = 0;
    std::string rest;  // what follows the value last read in its word, from a separator on
    bool left_out = false;
    const auto unexpected = [&] {
      const std::string& in = values[word - 1];
      if (rest.size() > 1) return UsageError("--" + name + ": unexpected '" + rest + "' in '" + in + "'");
      const bool last = std::count(in.begin(), in.end(), rest[0]) > 1;
      return UsageError("--" + name + ": nothing after " + (last ? "the last '" : "'") + rest + "' in '" + in + "'");
    };
    for (std::size_t i = 0; i < Op::params.size(); ++i) {
      const ParamSpec& spec = Op::params[i];
      const std::string what = "--" + name + ": " + spec.name;
      std::string text;
      if (!spec.joined) {
        if (!rest.empty()) throw unexpected();
        text = values[word++];
        left_out = false;
      } else if (left_out || rest.empty() || rest[0] != spec.joined) {
        if (!spec.optional)
          throw UsageError(what + " is missing: expected " + word_form<Op>(i) + ", got '" + values[word - 1] + "'");
        parsed[i].number = spec.default_number;
        parsed[i].choice = spec.default_choice;
        left_out = true;
        continue;
      } else {
        text = rest.substr(1);
        if (text.empty()) throw unexpected();
      }
      // A value ends where the next one joined to it begins; one that ends
      // the word is cut at its own separator, so that a stray one shows.
      const char next = i + 1 < Op::params.size() ? Op::params[i + 1].joined : 0;
      const char cut_at = next ? next : spec.type == ParamType::list ? 0 : spec.joined;
      const std::size_t cut = cut_at ? text.find(cut_at) : std::string::npos;
      rest = cut == std::string::npos ? "" : text.substr(cut);
      text.resize(std::min(cut, text.size()));
      parsed[i] = parse_param(what, spec, text);
    }
    if (!rest.empty()) throw unexpected();
    if constexpr (HasCheck<Op>::value)
      if (const std::string problem = problem_text(Op::check(Op::make(parsed))); !problem.empty())
        throw UsageError("--" + name + ": " + problem);
    rec = make_record<Op>(Op::make(parsed));
  });
  if (!found) throw UsageError("unknown operation '" + name + "'");
  return rec;
}

const char* op_name(OpId id) {
  const char* name = "?";
  visit_op(id, [&](auto tag) { name = decltype(tag)::type::name; });
  return name;
}

std::string describe(const OpRecord& rec) {
  std::string text = op_name(rec.id);
  visit_op(rec.id, [&](auto tag) {
    using Op = typename decltype(tag)::type;
    // Printed from the record itself, so -v shows what the GPU receives.
    const auto values = Op::values(rec.get<Op>());
    for (std::size_t i = 0; i < values.size(); ++i)
      text += std::string(" ") + Op::params[i].name + "=" + param_text(Op::params[i], values[i]);
  });
  return text;
}

}  // namespace gpuimg
