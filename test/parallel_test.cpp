// parallel_bands: the bands cover the range once, and a thread limit holds,
// which is what lets a batch run one image per core without each image
// starting a thread per core as well.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "parallel.hpp"

namespace gpuimg::test {
namespace {

struct Calls {
  std::vector<std::pair<int, int>> bands;
  std::set<std::thread::id> threads;
};

Calls run(int n, int min_band, int threads) {
  Calls calls;
  std::mutex mutex;
  parallel_bands(n, min_band, [&](int begin, int end) {
    std::lock_guard<std::mutex> lock(mutex);
    calls.bands.emplace_back(begin, end);
    calls.threads.insert(std::this_thread::get_id());
  }, threads);
  std::sort(calls.bands.begin(), calls.bands.end());
  return calls;
}

void expect_cover(const Calls& calls, int n) {
  int at = 0;
  for (const auto& [begin, end] : calls.bands) {
    EXPECT_EQ(begin, at);
    EXPECT_LT(begin, end);
    at = end;
  }
  EXPECT_EQ(at, n);
}

TEST(ParallelBands, AThreadLimitHolds) {
  for (const int limit : {1, 2, 3}) {
    SCOPED_TRACE(limit);
    const Calls calls = run(1000, 1, limit);
    expect_cover(calls, 1000);
    EXPECT_EQ(calls.bands.size(), static_cast<std::size_t>(limit));
    EXPECT_EQ(calls.threads.size(), static_cast<std::size_t>(limit));
  }
}

TEST(ParallelBands, NoLimitMeansOneBandPerHardwareThread) {
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const Calls calls = run(1000 * hw, 1, 0);
  expect_cover(calls, 1000 * hw);
  EXPECT_EQ(calls.bands.size(), static_cast<std::size_t>(hw));
}

TEST(ParallelBands, SmallRangesStayOnFewerThreads) {
  const Calls calls = run(20, 8, 16);
  expect_cover(calls, 20);
  EXPECT_EQ(calls.bands.size(), 2u);  // 20 rows / 8 per band
}

}  // namespace
}  // namespace gpuimg::test
