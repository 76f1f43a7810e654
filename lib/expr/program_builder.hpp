#pragma once
// Builds a Program as the parser reads it: values stay constants or names
// until an instruction needs them in a register; an instruction whose
// arguments are all constants is folded by the same xm:: function; a
// register is given back the moment its value is read, each value being
// read once.
#include <vector>

#include "expr/program.hpp"

namespace gpuimg::expr {

struct Value {
  enum Kind { constant, name, reg } kind;
  double k;  // constant's
  int index; // name's Name, or reg's register
};

class ProgramBuilder {
 public:
  static Value constant(double k) { return {Value::constant, k, 0}; }
  Value name(Name n);
  // f(args...) for a code of arity args.size() (1 to 3).
  Value apply(Code code, const std::vector<Value>& args);
  // The program computing `result`; the builder is spent.
  Program finish(Value result);

 private:
  int in_register(const Value& v);
  int take_register();

  Program program_;
  std::vector<int> free_;  // registers given back, reused lowest first
};

}  // namespace gpuimg::expr
