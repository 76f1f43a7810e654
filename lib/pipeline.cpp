#include "pipeline.hpp"

#include "error.hpp"
#include "number_text.hpp"

namespace gpuimg {
namespace {

double parse_value(const char* op, const ParamSpec& spec, const std::string& text) {
  const NumberForm form = spec.type == ParamType::integer ? NumberForm::integer : NumberForm::decimal;
  return parse_number(std::string("--") + op + ": " + spec.name, text, form, spec.min, spec.max);
}

}  // namespace

OpRecord parse_stage(const std::string& name, const std::vector<std::string>& values) {
  OpRecord rec{};
  bool found = false;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    if (found || name != Op::name) return;
    found = true;
    if (values.size() != Op::params.size())
      throw UsageError("--" + name + ": expected " + std::to_string(Op::params.size()) + " value(s), got " +
                       std::to_string(values.size()));
    double parsed[Op::params.size() + 1] = {};
    for (std::size_t i = 0; i < Op::params.size(); ++i) parsed[i] = parse_value(Op::name, Op::params[i], values[i]);
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
      text += std::string(" ") + Op::params[i].name + "=" + number_text(values[i]);
  });
  return text;
}

}  // namespace gpuimg
