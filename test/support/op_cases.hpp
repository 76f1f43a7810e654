#pragma once
// The test matrix, generated from the registry: every op with parameter
// values drawn from its ParamSpec (the ends of each range and values in
// between), every depth, every channel count, and awkward sizes. A new op is
// covered here without new test code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "error.hpp"
#include "example_values.hpp"
#include "number_text.hpp"
#include "pipeline.hpp"
#include "random_image.hpp"

namespace gpuimg::test {

struct OpCase {
  std::string name;  // "blur_R_17", usable in a test name
  OpRecord record;
};

inline std::vector<double> test_numbers(const ParamSpec& p) {
  std::vector<double> v = p.type == ParamType::integer
                              ? std::vector<double>{p.min, p.min + 1, p.min + 2, 8, 17, 64, p.max}
                              : std::vector<double>{p.min, 0.3, 0.5, 1, 2.5, p.max};
  v.erase(std::remove_if(v.begin(), v.end(), [&](double x) { return x < p.min || x > p.max || (p.min_excluded && x == p.min); }), v.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

inline std::vector<std::string> map_test_expressions() {
  return {"1-v", "v^0.45", "v<0.5?sin(v*pi):v", "x/w*0.5+y/h*0.5", "mix(v,1-r,0.25)+c*0.1-a*0.05",
          "clamp((g-b)*4+hypot(x-w/2,y-h/2)/w,0,1)", "v*(1-0.6*hypot(x/w-0.5,y/h-0.5))",
          "tanh(v*4-2)*0.5+0.5+cbrt(x/w-0.5)*0.1"};
}

// The texts each parameter takes in the matrix. Every region meets every
// awkward size: offsets are at most 0, or the region is centred.
inline std::vector<std::string> test_values(const ParamSpec& p) {
  std::vector<std::string> texts;
  switch (p.type) {
    case ParamType::integer:
    case ParamType::real:
      for (double v : test_numbers(p)) {
        std::ostringstream s;
        s.precision(17);
        s << v;
        texts.push_back(s.str());
      }
      break;
    case ParamType::fraction:
      for (double v : test_numbers(p)) texts.push_back(number_text(v));
      texts.push_back(number_text((p.min + p.max) / 2 * 100) + "%");
      break;
    case ParamType::list: texts = {number_text(p.max), number_text(p.min) + "," + number_text(p.max)}; break;
    case ParamType::geometry:
      texts = {"1x1+0+0", "5x3", "7x4-2-1", "100000x3", "2x100000+0-7", "50%x25%", "100%+0+0", "30%x100%+0-0"};
      break;
    case ParamType::size: texts = {"1x1", "5x", "x7", "50%", "250%", "31x2", "31x2>", "40x40<", "50%x300%"}; break;
    case ParamType::odd_size: texts = {"1x1", "3x3", "1x31", "31x1"}; break;
    case ParamType::choice:
      for (int i = 0; i < p.choice_count; ++i) texts.push_back(p.choices[i]);
      break;
    // Tables (of v alone), rising, falling and neither; and point stages
    // reading every other name. Oracle<Map> holds each written out in C++.
    case ParamType::expression: texts = map_test_expressions(); break;
  }
  return texts;
}

inline std::string value_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = c == '.' ? 'p' : c == '-' ? 'm' : c == '%' ? 'P' : '_';
  return s;
}

// The stage of an op's example ("--levels 5%,95%,1.2").
template <class Op> OpRecord example_stage() { return parse_stage(Op::name, example_values(Op::example)); }

// Each parameter takes each of its test values while the others keep their
// first; one joined to the value before it (behind ':' or ',') joins its word.
inline std::vector<OpCase> op_cases() {
  std::vector<OpCase> cases;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    if (Op::params.empty()) {
      cases.push_back({Op::name, parse_stage(Op::name, {})});
      return;
    }
    for (std::size_t i = 0; i < Op::params.size(); ++i)
      for (const std::string& v : test_values(Op::params[i])) {
        std::vector<std::string> words;
        std::string name = Op::name;
        for (std::size_t k = 0; k < Op::params.size(); ++k) {
          const std::string value = k == i ? v : test_values(Op::params[k]).front();
          if (Op::params[k].joined)
            words.back() += Op::params[k].joined + value;
          else
            words.push_back(value);
          name += std::string("_") + Op::params[k].name + "_" + value_name(value);
        }
        // Values that each parse may disagree (levels' B at or above W):
        // the op's check() refuses those, and its own tests pin that.
        try {
          cases.push_back({name, parse_stage(Op::name, words)});
        } catch (const UsageError&) {
          if (!HasCheck<Op>::value) throw;
        }
      }
    // Such values rarely agree when varied one at a time (a convolution's
    // size and its weights): the op's own example, which does, joins them.
    if constexpr (HasCheck<Op>::value) cases.push_back({std::string(Op::name) + "_example", example_stage<Op>()});
  });
  return cases;
}

// 1x1, a single row, a single column, sizes on and off the 32x8 tile grid.
inline std::vector<std::pair<int, int>> awkward_sizes() {
  return {{1, 1}, {37, 1}, {1, 41}, {33, 17}, {64, 8}, {257, 131}};
}

inline const char* depth_name(Depth d) { return d == Depth::U8 ? "u8" : "u16"; }

// One test per op case and depth, named "<suite>.<case>_<depth>", each
// calling check(input, record) on a seeded random image of every awkward
// size and channel count.
using MatrixCheck = std::function<void(const Image&, const OpRecord&)>;

inline bool register_op_matrix(const char* suite, const char* file, int line, std::function<void()> precondition,
                               MatrixCheck check) {
  class MatrixTest : public testing::Test {
   public:
    MatrixTest(std::function<void()> pre, MatrixCheck check, OpRecord rec, Depth depth)
        : pre_(std::move(pre)), check_(std::move(check)), rec_(rec), depth_(depth) {}
    void TestBody() override {
      pre_();
      if (IsSkipped()) return;
      std::uint32_t seed = static_cast<std::uint32_t>(rec_.id) * 1000 + (depth_ == Depth::U8 ? 0 : 500);
      for (auto [w, h] : awkward_sizes())
        for (int channels = 1; channels <= 4; ++channels) {
          const Image in = random_image(w, h, channels, depth_, seed++);
          SCOPED_TRACE(describe(rec_) + " on " + shape(in));
          check_(in, rec_);
        }
    }

   private:
    std::function<void()> pre_;
    MatrixCheck check_;
    OpRecord rec_;
    Depth depth_;
  };
  for (const OpCase& c : op_cases())
    for (Depth d : {Depth::U8, Depth::U16})
      testing::RegisterTest(suite, (c.name + "_" + depth_name(d)).c_str(), nullptr, nullptr, file, line,
                            [=]() -> testing::Test* { return new MatrixTest(precondition, check, c.record, d); });
  return true;
}

}  // namespace gpuimg::test
