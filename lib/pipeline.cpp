#include "pipeline.hpp"

#include "error.hpp"
#include "param_text.hpp"

namespace gpuimg {

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
    std::string rest;  // what follows the colon in the word last read
    for (std::size_t i = 0; i < Op::params.size(); ++i) {
      const ParamSpec& spec = Op::params[i];
      const std::string what = "--" + name + ": " + spec.name;
      if (spec.after_colon) {
        if (rest.empty()) {
          parsed[i].choice = spec.default_choice;
          continue;
        }
        const std::size_t colon = rest.find(':');
        parsed[i] = parse_param(what, spec, rest.substr(0, colon));
        rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
        if (colon != std::string::npos && rest.empty())
          throw UsageError("--" + name + ": nothing after the last ':' in '" + values[word - 1] + "'");
        continue;
      }
      if (!rest.empty()) throw UsageError("--" + name + ": unexpected ':" + rest + "'");
      std::string text = values[word++];
      const std::size_t colon = text.find(':');
      const bool colon_follows = i + 1 < Op::params.size() && Op::params[i + 1].after_colon;
      if (colon != std::string::npos && colon_follows) {
        rest = text.substr(colon + 1);
        if (rest.empty()) throw UsageError("--" + name + ": nothing after ':' in '" + text + "'");
        text.resize(colon);
      }
      parsed[i] = parse_param(what, spec, text);
    }
    if (!rest.empty()) throw UsageError("--" + name + ": unexpected ':" + rest + "'");
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
