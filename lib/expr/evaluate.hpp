#pragma once
// One evaluation of a program, the plainest form, against which the tests
// and the fuzz target hold the row evaluator (row_eval.hpp), which runs the
// same functions a chunk at a time for images and tables.
#include "expr/program.hpp"

namespace gpuimg::expr {

// names[int(Name::v)] ... names[int(Name::h)]: the values the program reads.
double evaluate(const Program& program, const double names[kNames]);

}  // namespace gpuimg::expr
