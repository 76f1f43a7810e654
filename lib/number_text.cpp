#include "number_text.hpp"

#include <cmath>
#include <cstdlib>

#include "error.hpp"

namespace gpuimg {
namespace {

bool is_plain_decimal(std::string_view t) {
  std::size_t at = 0;
  const auto sign = [&] {
    if (at < t.size() && (t[at] == '+' || t[at] == '-')) ++at;
  };
  const auto digits = [&] {
    const std::size_t from = at;
    while (at < t.size() && t[at] >= '0' && t[at] <= '9') ++at;
    return at - from;
  };
  sign();
  std::size_t mantissa = digits();
  if (at < t.size() && t[at] == '.') {
    ++at;
    mantissa += digits();
  }
  if (mantissa == 0) return false;
  if (at < t.size() && (t[at] == 'e' || t[at] == 'E')) {
    ++at;
    sign();
    if (digits() == 0) return false;
  }
  return at == t.size();
}

}  // namespace

std::optional<double> read_decimal(std::string_view text) {
  if (!is_plain_decimal(text)) return std::nullopt;
  // strtod rounds correctly and gives subnormals, zero and infinities where
  // the value leaves the normal range; its ERANGE says only that, and the
  // caller's range check decides.
  return std::strtod(std::string(text).c_str(), nullptr);
}

std::optional<double> read_fraction(std::string_view text) {
  const bool percent = !text.empty() && text.back() == '%';
  if (!percent) return read_decimal(text);
  // "1.1%" reads as the decimal 1.1e-2, the nearest double to 0.011, where
  // 1.1 / 100 is off by one in the last place; with an exponent of its own
  // the division it is.
  const std::string_view number = text.substr(0, text.size() - 1);
  if (number.find_first_of("eE") == std::string_view::npos && !number.empty())
    return read_decimal(std::string(number) + "e-2");
  const auto v = read_decimal(number);
  return v ? std::optional<double>(*v / 100) : std::nullopt;
}

double parse_number(const std::string& what, const std::string& text, NumberForm form, double min, double max) {
  std::optional<double> v;
  if (form == NumberForm::decimal) {
    v = read_decimal(text);
  } else if (const std::optional<long long> i = read_integer<long long>(text)) {
    v = static_cast<double>(*i);
  }
  if (v && *v >= min && *v <= max && !std::isinf(*v)) return *v;
  // A range open above reads "a finite decimal number, 0 or more": "from 0
  // to inf" would seem to take the 'inf' that no value may be.
  const bool integer = form == NumberForm::integer;
  const std::string range =
      std::isinf(max) ? std::string(integer ? "a finite integer" : "a finite decimal number") + ", " + number_text(min) +
                            " or more"
                      : std::string(integer ? "an integer" : "a decimal number") + " from " + number_text(min) + " to " +
                            number_text(max);
  throw UsageError(what + " must be " + range + ", got '" + text + "'");
}

std::string number_text(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return "0";  // -0 too: the same value everywhere gpuimg uses one
  char buf[32];
  // Whole numbers plainly: the shortest form of 100000 is 1e+05.
  const bool whole = v == std::floor(v) && std::fabs(v) < 1e15;
  const auto end = (whole ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                          : std::to_chars(buf, buf + sizeof buf, v))
                       .ptr;
  return std::string(buf, end);
}

}  // namespace gpuimg
