#pragma once
// The --map expression language (docs/map.md), compiled to programs.
#include <cstddef>
#include <string_view>
#include <vector>

#include "expr/program.hpp"
#include "expr/syntax_error.hpp"

namespace gpuimg::expr {

constexpr int kMostExpressions = 4;
constexpr std::size_t kLongestText = 4096;
constexpr int kDeepestNesting = 256;

// One program per ';'-separated expression (1 to kMostExpressions), each
// folded and its registers reused. Throws SyntaxError.
std::vector<Program> compile_map(std::string_view text);

}  // namespace gpuimg::expr
