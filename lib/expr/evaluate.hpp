#pragma once
// One evaluation of a program, for lookup tables and tests; images go
// through row_eval.hpp, which runs the same functions a chunk at a time.
#include "expr/program.hpp"

namespace gpuimg::expr {

// names[int(Name::v)] ... names[int(Name::h)]: the values the program reads.
double evaluate(const Program& program, const double names[kNames]);

}  // namespace gpuimg::expr
