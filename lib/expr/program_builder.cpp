#include "expr/program_builder.hpp"

#include <algorithm>
#include <functional>

#include "expr/code_functions.hpp"

namespace gpuimg::expr {

Value ProgramBuilder::name(Name n) {
  program_.reads |= 1u << static_cast<int>(n);
  return {Value::name, 0, static_cast<int>(n)};
}

int ProgramBuilder::take_register() {
  if (free_.empty()) return program_.registers++;
  std::pop_heap(free_.begin(), free_.end(), std::greater<int>());
  const int r = free_.back();
  free_.pop_back();
  return r;
}

int ProgramBuilder::in_register(const Value& v) {
  if (v.kind == Value::reg) return v.index;
  Instr in{v.kind == Value::constant ? Code::constant : Code::name, 0, 0, 0, 0, v.k};
  in.dst = static_cast<std::uint16_t>(take_register());
  if (v.kind == Value::name) in.a = static_cast<std::uint16_t>(v.index);
  program_.code.push_back(in);
  return in.dst;
}

Value ProgramBuilder::apply(Code code, const std::vector<Value>& args) {
  if (std::all_of(args.begin(), args.end(), [](const Value& v) { return v.kind == Value::constant; })) {
    double k[3] = {0, 0, 0};
    for (std::size_t i = 0; i < args.size(); ++i) k[i] = args[i].k;
    return constant(apply_code(code, k[0], k[1], k[2]));
  }
  std::uint16_t regs[3] = {0, 0, 0};
  for (std::size_t i = 0; i < args.size(); ++i) regs[i] = static_cast<std::uint16_t>(in_register(args[i]));
  // The destination is taken before the arguments' registers are given
  // back: no instruction writes a register it reads, which lets the row
  // evaluator's loops promise the compiler that nothing overlaps.
  const int dst = take_register();
  for (std::size_t i = 0; i < args.size(); ++i) {
    free_.push_back(regs[i]);
    std::push_heap(free_.begin(), free_.end(), std::greater<int>());
  }
  program_.code.push_back({code, static_cast<std::uint16_t>(dst), regs[0], regs[1], regs[2], 0});
  return {Value::reg, 0, dst};
}

Program ProgramBuilder::finish(Value result) {
  program_.result = in_register(result);
  return std::move(program_);
}

}  // namespace gpuimg::expr
