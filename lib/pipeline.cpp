#include "pipeline.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "error.hpp"

namespace gpuimg {
namespace {

// The shortest text that reads back as the same double: "0.8", not "0.80000000000000004".
std::string format_number(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

std::string range_text(const ParamSpec& spec) {
  const char* what = spec.type == ParamType::integer ? "an integer" : "a finite number";
  return std::string(what) + " from " + format_number(spec.min) + " to " + format_number(spec.max);
}

// Whole-string parses: "3x", "", " 3" and "0x10" are all refused.
bool parse_integer(const std::string& text, double* out) {
  long long v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end) return false;
  *out = static_cast<double>(v);
  return true;
}

bool parse_real(const std::string& text, double* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

double parse_value(const char* op, const ParamSpec& spec, const std::string& text) {
  double v = 0;
  const bool ok = spec.type == ParamType::integer ? parse_integer(text, &v) : parse_real(text, &v);
  if (!ok || v < spec.min || v > spec.max)
    throw UsageError(std::string("--") + op + ": " + spec.name + " must be " + range_text(spec) + ", got '" + text +
                     "'");
  return v;
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
      text += std::string(" ") + Op::params[i].name + "=" + format_number(values[i]);
  });
  return text;
}

}  // namespace gpuimg
