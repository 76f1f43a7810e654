#pragma once
// A pipeline is the ordered list of stage records the command line asked for.
#include <string>
#include <vector>

#include "registry.hpp"

namespace gpuimg {

using Pipeline = std::vector<OpRecord>;

// Builds the record for one occurrence of op `name` from the text of its
// values, checking each against the op's ParamSpec. Throws UsageError with a
// message like "--blur: R must be an integer from 1 to 4096, got '0'".
OpRecord parse_stage(const std::string& name, const std::vector<std::string>& values);

// "blur R=3", "sharpen F=0.8", "invert".
std::string describe(const OpRecord& rec);

// The op's name for a record ("blur").
const char* op_name(OpId id);

}  // namespace gpuimg
