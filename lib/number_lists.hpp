#pragma once
// The numbers of list parameters (ParamType::list), kept for the life of the
// process: a record holds only a handle to them, and the planner builds a
// stage's data from them (a convolution's weights).
#include <vector>

#include "param_values.hpp"

namespace gpuimg {

NumberList keep_number_list(std::vector<double> numbers);

// The numbers behind a handle that keep_number_list gave; safe from any thread.
const std::vector<double>& number_list(const NumberList& list);

}  // namespace gpuimg
