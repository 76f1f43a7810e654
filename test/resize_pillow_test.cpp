// The resize against Pillow: every golden in test/data/resize/ (made by
// scripts/make_resize_goldens.py with Pillow's Image.resize) matched byte
// for byte by the resize stage on the CPU backend, and on the GPU.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codec.hpp"
#include "error.hpp"
#include "gpu.hpp"
#include "resize_stage.hpp"
#include "image_compare.hpp"

namespace gpuimg::test {
namespace {

const std::string kDir = std::string(GPUIMG_TEST_DATA_DIR) + "/resize/";

struct GoldenCase {
  std::string input, filter, expected;
  int width = 0, height = 0;
};

std::vector<GoldenCase> read_manifest() {
  std::ifstream in(kDir + "manifest.txt");
  std::vector<GoldenCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    GoldenCase c;
    fields >> c.input >> c.filter >> c.width >> c.height >> c.expected;
    if (fields.fail()) ADD_FAILURE() << "manifest line not understood: " << line;
    cases.push_back(c);
  }
  return cases;
}

void expect_every_golden(Backend backend) {
  const std::vector<GoldenCase> cases = read_manifest();
  // Every layout and filter, a thousand cases: the manifest must not
  // quietly shrink.
  ASSERT_GE(cases.size(), 1000u) << "manifest " << kDir << "manifest.txt";
  int matched = 0;
  std::string last_input;
  Image in;
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.expected);
    if (c.input != last_input) {
      in = read_image(kDir + c.input);
      last_input = c.input;
    }
    ResizeFilter filter;
    ASSERT_TRUE(parse_resize_filter(c.filter, &filter)) << c.filter;
    const Image want = read_image(kDir + c.expected);
    const Image got = resize_on(backend, in, c.width, c.height, filter);
    const testing::AssertionResult same = same_samples(want, got);
    EXPECT_TRUE(same);
    matched += bool(same);
  }
  EXPECT_EQ(matched, int(cases.size()));
}

TEST(ResizePillow, EveryGoldenMatchesByteForByte) { expect_every_golden(Backend::cpu); }

TEST(ResizePillow, EveryGoldenMatchesByteForByteOnTheGpu) {
  GPUIMG_REQUIRE_GPU();
  expect_every_golden(Backend::cuda);
}

// The goldens cover each layout Pillow resizes with and without alpha.
TEST(ResizePillow, GoldensCoverEveryLayoutAndFilter) {
  int seen[5][5] = {};  // [channels][filter]
  std::string last_input;
  int channels = 0;
  for (const GoldenCase& c : read_manifest()) {
    if (c.input != last_input) {
      channels = read_image(kDir + c.input).channels;
      last_input = c.input;
    }
    ResizeFilter filter;
    ASSERT_TRUE(parse_resize_filter(c.filter, &filter));
    ++seen[channels][int(filter)];
  }
  for (int ch : {1, 2, 3, 4})
    for (ResizeFilter f : kResizeFilters)
      EXPECT_GE(seen[ch][int(f)], 40) << ch << " channels, " << resize_filter_name(f);
}

}  // namespace
}  // namespace gpuimg::test
