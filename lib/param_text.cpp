#include "param_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "ascii_case.hpp"
#include "error.hpp"
#include "expr/compile.hpp"
#include "expr/kept_expressions.hpp"
#include "io/codec.hpp"
#include "io/file_util.hpp"
#include "number_lists.hpp"
#include "number_text.hpp"

namespace gpuimg {
namespace {

std::string choice_list(const ParamSpec& spec) {
  std::string list;
  for (int i = 0; i < spec.choice_count; ++i) list += (i ? ", " : "") + std::string(spec.choices[i]);
  return list;
}

// A side of a geometry or size: digits alone, within the spec's range.
std::optional<std::int32_t> read_side(std::string_view text, const ParamSpec& spec) {
  if (text.empty() || text[0] == '+' || text[0] == '-') return std::nullopt;
  const auto v = read_integer<std::int64_t>(text);
  if (!v || *v < spec.min || *v > spec.max) return std::nullopt;
  return static_cast<std::int32_t>(*v);
}

// An offset: a sign, then digits; any int32.
std::optional<std::int32_t> read_offset(std::string_view text) {
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return std::nullopt;
  return read_integer<std::int32_t>(text);
}

// N%: a plain decimal, unsigned, above 0 and at most `most`.
std::optional<double> read_percent(std::string_view text, double most) {
  if (text.size() < 2 || text.back() != '%' || text[0] == '-' || text[0] == '+') return std::nullopt;
  const auto pct = read_decimal(text.substr(0, text.size() - 1));
  if (!pct || !(*pct > 0) || *pct > most) return std::nullopt;
  return pct;
}

// N%, or A%xB%: each side's percentage with its own '%', so that
// ImageMagick's 50x25% (one '%' for both) is refused rather than guessed at.
std::optional<std::pair<double, double>> read_percents(std::string_view text, double most) {
  const std::size_t x = text.find('x');
  if (x == std::string_view::npos) {
    const auto pct = read_percent(text, most);
    return pct ? std::optional<std::pair<double, double>>({*pct, *pct}) : std::nullopt;
  }
  const auto w = read_percent(text.substr(0, x), most), h = read_percent(text.substr(x + 1), most);
  return w && h ? std::optional<std::pair<double, double>>({*w, *h}) : std::nullopt;
}

// "50%", or "50%x25%" where the two differ.
std::string percents_text(double width, double height) {
  const auto one = [](double p) { return number_text(p) + "%"; };
  return width == height ? one(width) : one(width) + "x" + one(height);
}

std::optional<Geometry> read_geometry(std::string_view text, const ParamSpec& spec) {
  // Sides take no sign: the first one starts the offsets.
  const std::size_t sign = text.find_first_of("+-");
  const std::string_view size = text.substr(0, sign);
  Geometry g{};
  if (!size.empty() && size.back() == '%') {
    // A region larger than the image would only be cut back to it.
    const auto pct = read_percents(size, 100);
    if (!pct) return std::nullopt;
    g.width_percent = pct->first;
    g.height_percent = pct->second;
  } else {
    const std::size_t x = size.find('x');
    if (x == std::string_view::npos) return std::nullopt;
    const auto w = read_side(size.substr(0, x), spec), h = read_side(size.substr(x + 1), spec);
    if (!w || !h) return std::nullopt;
    g.width = *w;
    g.height = *h;
  }
  if (sign == std::string_view::npos) return g;
  const std::size_t second = text.find_first_of("+-", sign + 1);
  if (second == std::string_view::npos) return std::nullopt;
  const auto ox = read_offset(text.substr(sign, second - sign));
  const auto oy = read_offset(text.substr(second));
  if (!ox || !oy) return std::nullopt;
  g.x = *ox;
  g.y = *oy;
  g.offset = true;
  return g;
}

constexpr double kMostResizePercent = 1e6;

// ImageMagick's marks after WxH; '!' (exactly) is WxH alone, printed without it.
struct FitMark {
  char mark;
  SizeFit fit;
};
constexpr FitMark kFitMarks[] = {
    {'!', SizeFit::exact}, {'>', SizeFit::shrink_to_fit}, {'<', SizeFit::enlarge_to_fit}, {'^', SizeFit::fill}};
const FitMark* fit_mark(char c) {
  for (const FitMark& m : kFitMarks)
    if (m.mark == c) return &m;
  return nullptr;
}

std::optional<SizeSpec> read_size(std::string_view text, const ParamSpec& spec) {
  if (!text.empty() && text.back() == '%') {
    const auto pct = read_percents(text, kMostResizePercent);
    if (!pct) return std::nullopt;
    return SizeSpec{0, 0, pct->first, pct->second, SizeFit::exact};
  }
  SizeFit fit = SizeFit::exact;
  if (const FitMark* m = text.empty() ? nullptr : fit_mark(text.back())) {
    fit = m->fit;
    text.remove_suffix(1);
    if (text.empty() || text.front() == 'x' || text.back() == 'x') return std::nullopt;  // both sides given
  }
  const std::size_t x = text.find('x');
  if (x == std::string_view::npos || text.find('x', x + 1) != std::string_view::npos) return std::nullopt;
  const std::string_view ws = text.substr(0, x), hs = text.substr(x + 1);
  if (ws.empty() && hs.empty()) return std::nullopt;
  const auto w = ws.empty() ? std::optional<std::int32_t>(0) : read_side(ws, spec);
  const auto h = hs.empty() ? std::optional<std::int32_t>(0) : read_side(hs, spec);
  if (!w || !h) return std::nullopt;
  return SizeSpec{*w, *h, 0, 0, fit};
}

// WxH with both sides given and odd: a window centred on its pixel.
std::optional<SizeSpec> read_odd_size(std::string_view text, const ParamSpec& spec) {
  const std::size_t x = text.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  const auto w = read_side(text.substr(0, x), spec), h = read_side(text.substr(x + 1), spec);
  if (!w || !h || *w % 2 == 0 || *h % 2 == 0) return std::nullopt;
  return SizeSpec{*w, *h, 0, 0, SizeFit::exact};
}

// ImageMagick's 50x25% (one '%' for both sides) and a percentage beside a
// side in pixels, named for what they are: the list of forms alone leaves
// a user to spot the difference.
std::string size_hint(ParamType type, std::string_view text) {
  // ImageMagick's -resize 50 is a width: here that is 50x.
  if (type == ParamType::size && !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos)
    return "; a width alone is " + std::string(text) + "x, a height alone x" + std::string(text);
  const std::size_t x = text.find('x'), percent = text.find('%');
  if (type != ParamType::size || x == std::string_view::npos || percent == std::string_view::npos) return "";
  const std::string_view w = text.substr(0, x), h = text.substr(x + 1);
  if (std::count(text.begin(), text.end(), '%') == 1 && w.size() > (percent < x) && h.size() > (percent > x))
    return "; each side takes its own '%' (" + std::string(w) + (percent < x ? "" : "%") + "x" + std::string(h) +
           (percent < x ? "%" : "") +
           "), and a side in pixels cannot sit beside one in percent";
  return "";
}

std::string signed_text(std::int32_t v) { return (v < 0 ? "" : "+") + std::to_string(v); }

std::optional<double> read_number(std::string_view text, ParamType type) {
  if (type == ParamType::real) return read_decimal(text);
  const auto i = read_integer<long long>(text);
  return i ? std::optional<double>(static_cast<double>(*i)) : std::nullopt;
}

// Infinities fail every finite range.
bool in_range(double v, const ParamSpec& spec) {
  return (spec.min_excluded ? v > spec.min : v >= spec.min) && v <= spec.max;
}

// "from 0 to 1", "above 0, at most 100".
std::string range_text(const ParamSpec& spec, double scale = 1, const char* unit = "") {
  const std::string lo = number_text(spec.min * scale) + unit, hi = number_text(spec.max * scale) + unit;
  return spec.min_excluded ? "above " + lo + ", at most " + hi : "from " + lo + " to " + hi;
}

// The list, or nullopt and in `problem` which number is wrong ("number 25
// is 'x'"), so that a long list's refusal need not quote it all.
std::optional<NumberList> read_list(std::string_view text, const ParamSpec& spec, std::string& problem) {
  std::vector<double> numbers;
  for (;;) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const auto v = read_decimal(item);
    if (!v || !in_range(*v, spec)) {
      problem = "number " + std::to_string(numbers.size() + 1) +
                (item.empty() ? " is empty" : " is '" + std::string(item) + "'");
      // "1, 2": the number is fine, the space is not.
      const std::size_t first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
      if (first != std::string_view::npos && (first > 0 || last + 1 < item.size()) &&
          read_decimal(item.substr(first, last + 1 - first)))
        problem += " (no spaces in the list)";
      return std::nullopt;
    }
    if (static_cast<int>(numbers.size()) == spec.max_count) {
      problem = "more than " + std::to_string(spec.max_count);
      return std::nullopt;
    }
    numbers.push_back(*v);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  if (static_cast<int>(numbers.size()) < spec.min_count) {
    problem = "only " + std::to_string(numbers.size());
    return std::nullopt;
  }
  return keep_number_list(std::move(numbers));
}

}  // namespace

std::string param_form(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::integer: return "an integer " + range_text(spec);
    case ParamType::real: return "a decimal number " + range_text(spec);
    case ParamType::fraction: return "a fraction " + range_text(spec) + " or a percentage " + range_text(spec, 100, "%");
    case ParamType::list:
      return std::to_string(spec.min_count) + " to " + std::to_string(spec.max_count) +
             " numbers between commas, each " + range_text(spec);
    case ParamType::geometry:
      return "WxH+X+Y (offsets may be negative) or WxH (centred), sides from " + number_text(spec.min) + " to " +
             number_text(spec.max) + ", or with A%xB% or N% of the image's sides (above 0, at most 100%) for WxH";
    case ParamType::size:
      return "WxH (exactly), WxH> (to fit inside, only shrinking), WxH< (to fit inside, only enlarging) or WxH^ (to "
             "fill), Wx or xH (the other side keeps the aspect ratio), N% or A%xB% (of each side), sides from " +
             number_text(spec.min) + " to " + number_text(spec.max);
    case ParamType::odd_size:
      return "WxH with both sides odd, from " + number_text(spec.min) + " to " + number_text(spec.max);
    case ParamType::choice: return "one of " + choice_list(spec);
    case ParamType::expression:
      return "made of numbers, the names above and pi, e; + - * / % (fmod) ^ (power), < <= > >= == !=, && || !, "
             "c ? a : b, parentheses; min max (2 or more) clamp abs sign floor ceil round trunc sqrt cbrt exp exp2 expm1 log (natural; "
             "ImageMagick's is log10) log2 log10 log1p pow sin cos tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh "
             "hypot mix step smoothstep (README: Expressions)";
  }
  return "";
}

ParamValue parse_param(const std::string& what, const ParamSpec& spec, const std::string& text) {
  ParamValue v{};
  switch (spec.type) {
    case ParamType::integer:
    case ParamType::real:
      if (const auto n = read_number(text, spec.type); n && in_range(*n, spec)) {
        v.number = *n;
        return v;
      }
      break;
    case ParamType::fraction:
      if (const auto f = read_fraction(text); f && in_range(*f, spec)) {
        v.number = *f;
        return v;
      }
      break;
    case ParamType::list:
      if (std::string problem; const auto l = read_list(text, spec, problem)) {
        v.list = *l;
        return v;
      } else {
        // A long list (a 5x5 kernel's 25 weights) is not quoted whole.
        const std::string got = text.size() > 40 ? "; " : ", got '" + text + "': ";
        throw UsageError(what + " must be " + param_form(spec) + got + problem);
      }
    case ParamType::geometry:
      if (const auto g = read_geometry(text, spec)) {
        v.geometry = *g;
        return v;
      }
      break;
    case ParamType::size:
      if (const auto s = read_size(text, spec)) {
        v.size = *s;
        return v;
      }
      break;
    case ParamType::odd_size:
      if (const auto s = read_odd_size(text, spec)) {
        v.size = *s;
        return v;
      }
      break;
    case ParamType::choice: {
      // "Lanczos3" is lanczos3; the names are declared lower case.
      const std::string lower = ascii_lower(text);
      for (int i = 0; i < spec.choice_count; ++i)
        if (lower == spec.choices[i]) {
          v.choice = i;
          return v;
        }
      for (int i = 0; i < spec.alias_count; ++i)
        if (lower == spec.aliases[i].name) {
          v.choice = spec.aliases[i].choice;
          return v;
        }
      break;
    }
    case ParamType::expression:
      // "--map --invert": the expression was left out.
      if (text.rfind("--", 0) == 0) throw UsageError(what + " is missing: expected an expression, got '" + text + "'");
      try {
        v.expression = keep_expression(text);
        return v;
      } catch (const expr::SyntaxError& e) {
        // "--map out.png", "--map out/": the expression was left out before
        // the output (an image's name, or a folder's), which does not parse.
        const bool file = image_extension(lower_extension(text)) || (!text.empty() && text.back() == '/');
        if (file && text.find_first_of("; ") == std::string::npos)
          throw UsageError(what + " is missing: expected an expression, got '" + text + "', a file name");
        throw UsageError(what + ": " + e.problem(), {e.shown(), e.caret()});
      }
  }
  throw UsageError(what + " must be " + param_form(spec) + ", got '" + text + "'" + size_hint(spec.type, text));
}

std::string param_text(const ParamSpec& spec, const ParamValue& v) {
  switch (spec.type) {
    case ParamType::integer:
    case ParamType::real:
    case ParamType::fraction: return number_text(v.number);
    case ParamType::list: {
      std::string t;
      for (double n : number_list(v.list)) t += (t.empty() ? "" : ",") + number_text(n);
      return t;
    }
    case ParamType::geometry: {
      const Geometry& g = v.geometry;
      std::string t = g.width_percent > 0 ? percents_text(g.width_percent, g.height_percent)
                                          : std::to_string(g.width) + "x" + std::to_string(g.height);
      return g.offset ? t + signed_text(g.x) + signed_text(g.y) : t;
    }
    case ParamType::size: {
      const SizeSpec& s = v.size;
      if (s.width_percent > 0) return percents_text(s.width_percent, s.height_percent);
      std::string t = (s.width ? std::to_string(s.width) : "") + "x" + (s.height ? std::to_string(s.height) : "");
      if (s.fit != SizeFit::exact)
        for (const FitMark& m : kFitMarks)
          if (m.fit == s.fit) t += m.mark;
      return t;
    }
    case ParamType::odd_size: return std::to_string(v.size.width) + "x" + std::to_string(v.size.height);
    case ParamType::choice: return spec.choices[v.choice];
    case ParamType::expression: return kept_expression(v.expression).text;
  }
  return "";
}

}  // namespace gpuimg
