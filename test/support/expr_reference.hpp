#pragma once
// An independent reference for the --map language: random expression trees,
// printed as text the way a person might write them (random spacing, extra
// parentheses, only the parentheses precedence needs otherwise), and a
// tree-walking evaluator written from README's definitions. It calls xm::
// only for the transcendental functions; every other operation is written
// here again, so that the compiler and row evaluator are checked against
// something that is not themselves.
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "expr_math.hpp"

namespace gpuimg::test::expr_ref {

enum class Op { number, name, neg, plus, lnot, binary, ternary, call };

struct Node {
  Op op;
  std::string word;  // binary's symbol, call's function, name's name
  double k = 0;      // number's value
  std::vector<Node> kids;
};

// The names in program.hpp's Name order, then the constants.
inline const char* const kNames[] = {"v", "r", "g", "b", "a", "c", "x", "y", "w", "h", "pi", "e"};
constexpr int kVariables = 10;

struct Function {
  const char* word;
  int arity;
  bool more;  // takes arity or more arguments
};
// In the vocabulary's order (lib/expr/vocabulary.cpp).
inline const Function kFunctions[] = {
    {"min", 2, true}, {"max", 2, true}, {"clamp", 3, false}, {"abs", 1, false}, {"sign", 1, false},
    {"floor", 1, false}, {"ceil", 1, false}, {"round", 1, false}, {"trunc", 1, false}, {"sqrt", 1, false},
    {"cbrt", 1, false}, {"exp", 1, false}, {"exp2", 1, false}, {"expm1", 1, false}, {"log", 1, false},
    {"log2", 1, false}, {"log10", 1, false}, {"log1p", 1, false}, {"pow", 2, false}, {"sin", 1, false},
    {"cos", 1, false}, {"tan", 1, false}, {"asin", 1, false}, {"acos", 1, false}, {"atan", 1, false},
    {"atan2", 2, false}, {"sinh", 1, false}, {"cosh", 1, false}, {"tanh", 1, false}, {"asinh", 1, false},
    {"acosh", 1, false}, {"atanh", 1, false}, {"hypot", 2, false}, {"mix", 3, false}, {"step", 2, false},
    {"smoothstep", 3, false},
};
inline const char* const kBinary[] = {"||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "^"};

// ---- evaluation, from the definitions --------------------------------------

inline bool is_true(double a) { return a != 0; }  // NaN is true
inline double bit(bool b) { return b ? 1.0 : 0.0; }
// IEEE minNum/maxNum: a NaN gives the other. Of two equal values (0 and
// -0) the first, as glibc's fmin and fmax give it: IEEE leaves it open.
inline double ref_min(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : (b < a ? b : a); }
inline double ref_max(double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : (b > a ? b : a); }
inline double ref_floor(double a) {
  const double t = std::trunc(a);
  return t > a ? t - 1 : t;
}
inline double ref_ceil(double a) {
  const double t = std::trunc(a);
  return t < a ? t + 1 : t;
}
// Halves away from zero.
inline double ref_round(double a) {
  const double t = std::trunc(a);
  return std::fabs(a - t) >= 0.5 ? t + (a < 0 ? -1.0 : 1.0) : t;
}
inline double ref_clamp(double x, double lo, double hi) { return ref_min(ref_max(x, lo), hi); }

inline double binary(const std::string& op, double a, double b) {
  if (op == "||") return bit(is_true(a) || is_true(b));
  if (op == "&&") return bit(is_true(a) && is_true(b));
  if (op == "==") return bit(a == b);
  if (op == "!=") return bit(a != b);
  if (op == "<") return bit(a < b);
  if (op == "<=") return bit(a <= b);
  if (op == ">") return bit(a > b);
  if (op == ">=") return bit(a >= b);
  if (op == "+") return a + b;
  if (op == "-") return a - b;
  if (op == "*") return a * b;
  if (op == "/") return a / b;
  if (op == "%") return std::fmod(a, b);  // IEEE remainder with a's sign, exact
  return xm::pow(a, b);  // "^"
}

// min and max of several, left to right.
inline double fold(double (*f)(double, double), const std::vector<double>& x) {
  double r = x[0];
  for (std::size_t i = 1; i < x.size(); ++i) r = f(r, x[i]);
  return r;
}

inline double call(const std::string& f, const std::vector<double>& x) {
  if (f == "min") return fold(ref_min, x);
  if (f == "max") return fold(ref_max, x);
  if (f == "clamp") return ref_clamp(x[0], x[1], x[2]);
  if (f == "abs") return std::signbit(x[0]) ? -x[0] : x[0];
  // Zeros and NaN are their own sign.
  if (f == "sign") return std::isnan(x[0]) || x[0] == 0 ? x[0] : std::signbit(x[0]) ? -1.0 : 1.0;
  if (f == "floor") return ref_floor(x[0]);
  if (f == "ceil") return ref_ceil(x[0]);
  if (f == "round") return ref_round(x[0]);
  if (f == "trunc") return std::trunc(x[0]);
  if (f == "sqrt") return std::sqrt(x[0]);  // IEEE: correctly rounded everywhere
  if (f == "exp") return xm::exp(x[0]);
  if (f == "log") return xm::log(x[0]);
  if (f == "log2") return xm::log2(x[0]);
  if (f == "log10") return xm::log10(x[0]);
  if (f == "pow") return xm::pow(x[0], x[1]);
  if (f == "sin") return xm::sin(x[0]);
  if (f == "cos") return xm::cos(x[0]);
  if (f == "tan") return xm::tan(x[0]);
  if (f == "asin") return xm::asin(x[0]);
  if (f == "acos") return xm::acos(x[0]);
  if (f == "atan") return xm::atan(x[0]);
  if (f == "atan2") return xm::atan2(x[0], x[1]);
  if (f == "hypot") return xm::hypot(x[0], x[1]);
  if (f == "sinh") return xm::sinh(x[0]);
  if (f == "cosh") return xm::cosh(x[0]);
  if (f == "tanh") return xm::tanh(x[0]);
  if (f == "asinh") return xm::asinh(x[0]);
  if (f == "acosh") return xm::acosh(x[0]);
  if (f == "atanh") return xm::atanh(x[0]);
  if (f == "log1p") return xm::log1p(x[0]);
  if (f == "expm1") return xm::expm1(x[0]);
  if (f == "cbrt") return xm::cbrt(x[0]);
  if (f == "exp2") return xm::exp2(x[0]);
  if (f == "mix") return x[0] + (x[1] - x[0]) * x[2];
  if (f == "step") return x[1] < x[0] ? 0.0 : 1.0;
  // smoothstep
  const double t = ref_clamp((x[2] - x[0]) / (x[1] - x[0]), 0, 1);
  return t * t * (3 - 2 * t);
}

// names: v r g b a c x y w h.
inline double eval(const Node& n, const double* names) {
  switch (n.op) {
    case Op::number: return n.k;
    case Op::name:
      if (n.word == "pi") return 3.141592653589793;
      if (n.word == "e") return 2.718281828459045;
      for (int i = 0; i < kVariables; ++i)
        if (n.word == kNames[i]) return names[i];
      return NAN;
    case Op::neg: return -eval(n.kids[0], names);
    case Op::plus: return eval(n.kids[0], names);
    case Op::lnot: return bit(eval(n.kids[0], names) == 0);
    case Op::binary: return binary(n.word, eval(n.kids[0], names), eval(n.kids[1], names));
    case Op::ternary:
      return is_true(eval(n.kids[0], names)) ? eval(n.kids[1], names) : eval(n.kids[2], names);
    case Op::call: {
      std::vector<double> x;
      for (const Node& kid : n.kids) x.push_back(eval(kid, names));
      return call(n.word, x);
    }
  }
  return NAN;
}

// Bit equality, any NaN equal to any other.
inline bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// ---- random trees ------------------------------------------------------------

// Constants, some of them the edges: 0, 1, tiny, huge (1e308^2 overflows),
// 710 (exp overflows), negative ones come from unary minus.
inline double random_constant(std::mt19937& rng) {
  static const double kPool[] = {0, 1, 2, 3, 0.5, 0.25, 10, 255, 65535, 1e-300, 1e308, 710, 1e-5, 4.9e-324, 0.1, 1e300};
  std::uniform_int_distribution<int> pick(0, 19);
  const int i = pick(rng);
  if (i < 16) return kPool[i];
  if (i < 18) return std::uniform_real_distribution<double>(0, 4)(rng);
  return std::uniform_int_distribution<int>(0, 1000)(rng);
}

enum class Leaves { any, variables, v_and_numbers };

// Up to `depth` levels; leaves are numbers or names, the constants pi and e
// among them (Leaves::any), only the ten variables (Leaves::variables), or
// v and numbers, a table's expression (Leaves::v_and_numbers).
inline Node random_tree(std::mt19937& rng, int depth, Leaves leaves = Leaves::any) {
  std::uniform_int_distribution<int> pct(0, 99);
  if (depth == 0 || pct(rng) < 20) {
    if (leaves == Leaves::variables) return {Op::name, kNames[std::uniform_int_distribution<int>(0, kVariables - 1)(rng)], 0, {}};
    if (pct(rng) < 50) return {Op::number, "", random_constant(rng), {}};
    if (leaves == Leaves::v_and_numbers) return {Op::name, "v", 0, {}};
    return {Op::name, kNames[std::uniform_int_distribution<int>(0, 11)(rng)], 0, {}};
  }
  const int kind = pct(rng);
  Node n;
  const auto kid = [&] { return random_tree(rng, depth - 1, leaves); };
  if (kind < 12) {
    n.op = kind < 7 ? Op::neg : kind < 9 ? Op::plus : Op::lnot;
    n.kids = {kid()};
  } else if (kind < 55) {
    n.op = Op::binary;
    n.word = kBinary[std::uniform_int_distribution<int>(0, static_cast<int>(std::size(kBinary)) - 1)(rng)];
    n.kids = {kid(), kid()};
  } else if (kind < 62) {
    n.op = Op::ternary;
    n.kids = {kid(), kid(), kid()};
  } else {
    n.op = Op::call;
    const Function& f = kFunctions[std::uniform_int_distribution<int>(0, static_cast<int>(std::size(kFunctions)) - 1)(rng)];
    n.word = f.word;
    const int args = f.arity + (f.more ? std::uniform_int_distribution<int>(0, 2)(rng) : 0);
    for (int i = 0; i < args; ++i) n.kids.push_back(kid());
  }
  return n;
}

// The tree with each variable replaced by its value as a number.
inline Node with_numbers(const Node& n, const double* names) {
  if (n.op == Op::name) return {Op::number, "", eval(n, names), {}};
  Node out = n;
  for (Node& kid : out.kids) kid = with_numbers(kid, names);
  return out;
}

// ---- printing ----------------------------------------------------------------

// Precedence levels, lowest first, as the language defines them.
enum Level { kTernary, kOr, kAnd, kEquality, kRelational, kAdditive, kMultiplicative, kUnary, kPower, kPrimary };

inline int binary_level(const std::string& op) {
  if (op == "||") return kOr;
  if (op == "&&") return kAnd;
  if (op == "==" || op == "!=") return kEquality;
  if (op == "+" || op == "-") return kAdditive;
  if (op == "*" || op == "/" || op == "%") return kMultiplicative;
  if (op == "^") return kPower;
  return kRelational;
}

inline int level(const Node& n) {
  switch (n.op) {
    case Op::number: case Op::name: case Op::call: return kPrimary;
    case Op::neg: case Op::plus: case Op::lnot: return kUnary;
    case Op::binary: return binary_level(n.word);
    case Op::ternary: return kTernary;
  }
  return kPrimary;
}

// Round-trips the double exactly, in one of the spellings a person uses.
inline std::string number_text(double k, std::mt19937& rng) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", k);
  std::string s = buf;
  if (s.rfind("0.", 0) == 0 && rng() % 2) s.erase(0, 1);  // .5
  if (s.find_first_of(".e") == std::string::npos && rng() % 4 == 0) s += rng() % 2 ? ".0" : "e0";
  return s;
}

class Printer {
 public:
  explicit Printer(std::mt19937& rng) : rng_(rng) {}

  std::string text(const Node& n, int at_least = kTernary) {
    const bool parens = level(n) < at_least || rng_() % 10 == 0;
    std::string body = bare(n);
    return parens ? "(" + space() + body + space() + ")" : body;
  }

 private:
  std::string space() { return rng_() % 3 == 0 ? " " : ""; }

  std::string bare(const Node& n) {
    switch (n.op) {
      case Op::number: return number_text(n.k, rng_);
      case Op::name: return n.word;
      case Op::neg: return "-" + space() + text(n.kids[0], kUnary);
      case Op::plus: return "+" + space() + text(n.kids[0], kUnary);
      case Op::lnot: return "!" + space() + text(n.kids[0], kUnary);
      case Op::binary: {
        const int l = binary_level(n.word);
        // ^: the base a primary, the exponent a unary expression (right-associative).
        const int left = l == kPower ? kPrimary : l, right = l == kPower ? kUnary : l + 1;
        return text(n.kids[0], left) + space() + n.word + space() + text(n.kids[1], right);
      }
      case Op::ternary:
        return text(n.kids[0], kOr) + space() + "?" + space() + text(n.kids[1]) + space() + ":" + space() +
               text(n.kids[2]);
      case Op::call: {
        std::string s = n.word + space() + "(";
        for (std::size_t i = 0; i < n.kids.size(); ++i) s += (i ? "," + space() : space()) + text(n.kids[i]);
        return s + space() + ")";
      }
    }
    return "";
  }

  std::mt19937& rng_;
};

}  // namespace gpuimg::test::expr_ref
