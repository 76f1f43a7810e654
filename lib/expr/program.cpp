#include "expr/program.hpp"

#include "expr/code_functions.hpp"

namespace gpuimg::expr {

int arity(Code code) {
  if (code == Code::constant || code == Code::name) return 0;
  return visit_code(code, [](auto fn, const char*) { return decltype(fn)::arity; });
}

const char* code_name(Code code) {
  if (code == Code::constant) return "constant";
  if (code == Code::name) return "name";
  return visit_code(code, [](auto, const char* name) { return name; });
}

}  // namespace gpuimg::expr
