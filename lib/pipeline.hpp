#pragma once
// A pipeline is the ordered list of stage records the command line asked for.
#include <cstddef>
#include <string>
#include <vector>

#include "registry.hpp"

namespace gpuimg {

using Pipeline = std::vector<OpRecord>;

// Builds the record for one occurrence of op `name` from the text of its
// values, checking each against the op's ParamSpec. Throws UsageError with a
// message like "--blur: R must be an integer from 1 to 4096, got '0'".
OpRecord parse_stage(const std::string& name, const std::vector<std::string>& values);

// The words an op takes on the command line: one per parameter, but for
// those written behind a colon in the word before ("50%:linear").
template <class Op> constexpr std::size_t words_taken() {
  std::size_t n = 0;
  for (const ParamSpec& p : Op::params) n += p.joined ? 0 : 1;
  return n;
}

// How the word holding parameter i is written: "SIZE[:FILTER]", "B,W[,G]".
template <class Op> std::string word_form(std::size_t i) {
  if constexpr (Op::params.size() == 1) {
    return Op::params[0].name;  // what the loops give, without GCC's warning of params[1]
  } else {
    while (i > 0 && Op::params[i].joined) --i;
    std::string form = Op::params[i].name, closing;
    for (++i; i < Op::params.size() && Op::params[i].joined; ++i) {
      const ParamSpec& p = Op::params[i];
      form += std::string(p.optional ? "[" : "") + p.joined + p.name;
      if (p.optional) closing += "]";
    }
    return form + closing;
  }
}

// Every word an op takes: "SIZE[:FILTER]", "B,W[,G]", "R".
template <class Op> std::string words_form() {
  std::string form;
  for (std::size_t i = 0; i < Op::params.size(); ++i)
    if (!Op::params[i].joined) form += (form.empty() ? "" : " ") + word_form<Op>(i);
  return form;
}

// "blur R=3", "sharpen F=0.8", "invert"; after planning, the resolved values.
std::string describe(const OpRecord& rec);

// The op's name for a record ("blur").
const char* op_name(OpId id);

}  // namespace gpuimg
