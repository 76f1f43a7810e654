#pragma once
// Numbers as text, by one rule: the operations' values, every numeric
// option and a manifest's limits are read the same way, and printed back
// the same way.
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace gpuimg {

// A plain decimal, read whole: an optional sign, digits with an optional
// fraction, an optional exponent ("0.8", "-1", ".5", "2.5e-3", "1E6").
// Hex, "inf", "nan", spaces and anything before or after are refused
// (nullopt). The value is rounded correctly: one too small for a double
// becomes a subnormal or zero, as any finite value does at its nearest
// double; one too large becomes an infinity, which every finite range
// refuses.
std::optional<double> read_decimal(std::string_view text);

// A fraction as read_decimal reads it, 0.25, or 25% for the same fraction.
std::optional<double> read_fraction(std::string_view text);

// A plain decimal of digits alone, with an optional sign: no fraction or
// exponent. nullopt also where the value does not fit Int.
template <class Int> std::optional<Int> read_integer(std::string_view text) {
  const bool sign = !text.empty() && (text[0] == '+' || text[0] == '-');
  const std::string_view digits = text.substr(sign ? 1 : 0);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  if (text[0] == '+') text.remove_prefix(1);  // from_chars takes a '-' only
  Int v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

enum class NumberForm { integer, decimal };

// TEXT as a number of that form from min to max (inclusive), or UsageError
// "WHAT must be an integer from 1 to 4096, got 'TEXT'" ("a decimal number"
// for the other form), WHAT naming the option ("--quality:", "--blur: R").
double parse_number(const std::string& what, const std::string& text, NumberForm form, double min, double max);

// The shortest text that reads back as the same double ("0.8", not
// "0.80000000000000004"), but whole numbers below 10^15 in full ("100000",
// not "1e+05"); "inf" and "-inf" for the infinities.
std::string number_text(double v);

}  // namespace gpuimg
