#pragma once
// The text of an op's parameter values, read and written by one rule per
// ParamType (kernels/param_values.hpp).
#include <string>

#include "param_values.hpp"

namespace gpuimg {

// TEXT as a value of `spec`, or UsageError naming WHAT ("--crop: GEOMETRY")
// and what the value must look like.
ParamValue parse_param(const std::string& what, const ParamSpec& spec, const std::string& text);

// The value as it would be written on the command line.
std::string param_text(const ParamSpec& spec, const ParamValue& value);

// "an integer from 1 to 4096", "WxH+X+Y or WxH", "one of 90, 180, 270": for --help.
std::string param_form(const ParamSpec& spec);

}  // namespace gpuimg
