#include "orientation.hpp"

namespace gpuimg {
namespace {

// EXIF 2.3's table, undone: 1 as stored; 2 to 4 mirrored or half-turned;
// 5 to 8 with rows and columns swapped. Index 0 stands for a value out of range.
struct Upright {
  const char* stages[2][2];  // op, value ("" for none)
  const char* text;
};

constexpr Upright kUpright[9] = {
    {{{"", ""}, {"", ""}}, "kept"},
    {{{"", ""}, {"", ""}}, "kept"},
    {{{"flop", ""}, {"", ""}}, "mirrored left to right"},
    {{{"rotate", "180"}, {"", ""}}, "turned 180 degrees"},
    {{{"flip", ""}, {"", ""}}, "mirrored top to bottom"},
    {{{"transpose", ""}, {"", ""}}, "transposed"},
    {{{"rotate", "90"}, {"", ""}}, "turned 90 degrees clockwise"},
    {{{"rotate", "90"}, {"flip", ""}}, "turned 90 degrees clockwise and mirrored top to bottom"},
    {{{"rotate", "270"}, {"", ""}}, "turned 90 degrees counter-clockwise"},
};

const Upright& upright(int orientation) { return kUpright[orientation >= 1 && orientation <= 8 ? orientation : 0]; }

}  // namespace

Pipeline upright_stages(int orientation) {
  Pipeline stages;
  for (const auto& stage : upright(orientation).stages) {
    const std::string op = stage[0], value = stage[1];
    if (!op.empty()) stages.push_back(parse_stage(op, value.empty() ? std::vector<std::string>{} : std::vector<std::string>{value}));
  }
  return stages;
}

std::string upright_text(int orientation) { return upright(orientation).text; }

}  // namespace gpuimg
