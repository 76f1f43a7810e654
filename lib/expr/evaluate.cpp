#include "expr/evaluate.hpp"

#include <vector>

#include "expr/code_functions.hpp"

namespace gpuimg::expr {

double evaluate(const Program& program, const double names[kNames]) {
  std::vector<double> reg(program.registers);
  for (const Instr& in : program.code) {
    if (in.code == Code::constant)
      reg[in.dst] = in.k;
    else if (in.code == Code::name)
      reg[in.dst] = names[in.a];
    else
      reg[in.dst] = apply_code(in.code, reg[in.a], reg[in.b], reg[in.c]);
  }
  return reg[program.result];
}

}  // namespace gpuimg::expr
