#pragma once
// Pipelines of table stages and images for them, shared by the CPU tests
// of the fused pass and the GPU's against the CPU.
#include <string>
#include <vector>

#include "pipeline.hpp"
#include "random_image.hpp"

namespace gpuimg::test {

inline Pipeline stages(const std::vector<std::vector<std::string>>& words) {
  Pipeline p;
  for (const auto& w : words) p.push_back(parse_stage(w.front(), {w.begin() + 1, w.end()}));
  return p;
}

// Channel c squeezed into [lo_c, lo_c + span_c): a different narrow range each.
inline Image narrow_ranges(Image img) {
  const int hi = max_sample(img.depth);
  for (std::size_t i = 0; i < img.pixel_count() * img.channels; ++i) {
    const int c = static_cast<int>(i % img.channels);
    const int lo = hi / 8 * (c + 1), span = hi / 10 + c * 7;
    const int v = lo + sample(img, i) % span;
    if (img.depth == Depth::U8)
      img.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
    else
      img.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
  }
  return img;
}

// Chains of table stages: long ones, range-reading stages first, inside and
// repeated, and a flat image.
inline std::vector<std::vector<std::vector<std::string>>> table_chains() {
  return {
    {{"levels", "5%,95%,1.8"}, {"gamma", "2.2"}, {"invert"}, {"linear", "1.3,-0.1"}, {"threshold", "40%"}},
    {{"normalize"}},
    {{"invert"}, {"normalize"}, {"gamma", "0.5"}},
    {{"levels", "0.2,0.6"}, {"normalize"}, {"invert"}, {"normalize"}, {"linear", "-0.5,0.7"}},
      {{"linear", "0,0.3"}, {"normalize"}},  // a flat image: normalize keeps it
  };
}

}  // namespace gpuimg::test
