#pragma once
// The --map expressions of a run (ParamType::expression), compiled once and
// kept for the life of the process: a stage record holds only a handle, as
// records must stay trivially copyable to travel to the GPU.
#include <string>
#include <vector>

#include "param_values.hpp"
#include "expr/program.hpp"

namespace gpuimg {

struct KeptExpression {
  std::string text;                     // as the user wrote it
  std::vector<expr::Program> programs;  // one for every colour channel, or one a channel
};

// Compiles TEXT (expr::compile_map) and keeps it; throws expr::SyntaxError.
// The same text twice gives the same handle.
ExpressionRef keep_expression(const std::string& text);

// What a handle keep_expression gave holds; safe from any thread.
const KeptExpression& kept_expression(ExpressionRef ref);

}  // namespace gpuimg
