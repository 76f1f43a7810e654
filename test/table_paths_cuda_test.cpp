// Which table paths a GPU runs (kernels/table_paths.hpp), asked of GPUs
// this machine does not have: their compute capability, the PTX the build
// gave them, and the shared memory a block may opt into (CUDA's
// programming guide, "compute capabilities": 227 KiB on sm_90, 163 on
// sm_80, 99 on sm_86, sm_89 and sm_120, 64 on sm_75).
#include <gtest/gtest.h>

#include "table_paths.hpp"

namespace gpuimg::test {
namespace {

struct Case {
  const char* gpu;
  TableDevice device;
  bool stream8, grid8, bulk16, copied16;
};

TEST(TablePaths, EachGpuRunsThePathsItHasTheCopiesAndRoomFor) {
  const Case cases[] = {
      {"H100 or H200, sm_90 code", {9, 90, 232448}, true, true, true, true},
      {"H100, a build of compute_80 PTX alone (bulk copies trap)", {9, 80, 232448}, false, true, false, true},
      {"A100", {8, 80, 166912}, false, true, false, true},
      {"RTX 3090", {8, 86, 101376}, false, true, false, false},
      {"RTX 4090", {8, 89, 101376}, false, true, false, false},
      {"RTX 5090", {12, 120, 101376}, false, true, false, false},
      {"T4", {7, 75, 65536}, false, true, false, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.gpu);
    EXPECT_EQ(table_path_runs(TablePath::stream8, c.device), c.stream8);
    EXPECT_EQ(table_path_runs(TablePath::grid8, c.device), c.grid8);
    EXPECT_EQ(table_path_runs(TablePath::bulk16, c.device), c.bulk16);
    EXPECT_EQ(table_path_runs(TablePath::copied16, c.device), c.copied16);
    EXPECT_TRUE(table_path_runs(TablePath::global16, c.device)) << "the way every GPU has";
  }
}

}  // namespace
}  // namespace gpuimg::test
