#pragma once
// The typed values an op's parameters take on the command line. Each type
// is parsed and validated in one place (lib/param_text.cpp) and printed back
// the same way, so -v shows what the stage record holds.
#include <cstdint>

namespace gpuimg {

enum class ParamType {
  integer,   // 3
  real,      // 0.8
  geometry,  // WxH+X+Y, or WxH for a centred region
  size,      // WxH, Wx, xH or N%
  choice,    // one name from the spec's list
};

// WxH+X+Y; offsets may be negative (-X-Y). `offset` false: WxH alone.
struct Geometry {
  std::int32_t width, height, x, y;
  bool offset;
};

// WxH, Wx or xH (the missing side 0), or N% (percent > 0, both sides 0).
struct SizeSpec {
  std::int32_t width, height;
  double percent;
};

struct ParamValue {
  double number;  // integer, real
  Geometry geometry;
  SizeSpec size;
  std::int32_t choice;  // index into ParamSpec::choices
};

struct ParamSpec {
  const char* name;  // shown in --help: --blur R
  ParamType type;
  // integer, real: the inclusive range of the value; geometry, size: of
  // each side (offsets may take any int).
  double min, max;
  const char* meaning;
  // choice: the names, in order, and the index taken when it is left out.
  const char* const* choices = nullptr;
  int choice_count = 0;
  int default_choice = 0;
  // Written after the previous value, behind a colon ("50%:linear"), and
  // optional there.
  bool after_colon = false;
};

}  // namespace gpuimg
