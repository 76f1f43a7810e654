// The batch runner's shapes without a GPU: the CPU workers, and the staged
// pipeline (decoders, lanes, encoders) with run_cpu standing in for the GPU
// lanes, so the queues, the lanes' overlap and the stopping rules are tested
// everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "backend.hpp"
#include "batch_items.hpp"
#include "batch_run.hpp"
#include "batch_tree.hpp"
#include "error.hpp"

namespace gpuimg::test {
namespace {

struct Tally {
  std::atomic<int> processed{0}, failed{0};
  ReportFn report() {
    return [this](const BatchItem&, Outcome o, const std::string&, const std::vector<std::string>&) {
      ++(o == Outcome::processed ? processed : failed);
    };
  }
};

BatchSettings cpu_settings(int jobs) {
  BatchSettings settings;
  settings.pipeline = {parse_stage("blur", {"1"}), parse_stage("invert", {})};
  settings.jobs = jobs;
  return settings;
}

TEST(BatchStaged, GivesTheSameBytesAsTheWorkers) {
  TempDir tmp;
  make_input_tree(tmp / "in");
  const BatchSettings settings = cpu_settings(2);
  const auto never = [] { return false; };
  Tally workers, staged;
  run_batch(plan_batch({{tmp.file("in")}, {}, true, ""}, tmp.file("workers"), ""), settings, never, workers.report());
  const Lane cpu = [&](Image& img) { run_cpu(img, settings.pipeline); };
  const std::vector<std::size_t> per_lane =
      run_batch_staged(plan_batch({{tmp.file("in")}, {}, true, ""}, tmp.file("staged"), ""), settings, {cpu, cpu}, never,
                       staged.report());
  ASSERT_EQ(per_lane.size(), 2u);
  EXPECT_EQ(per_lane[0] + per_lane[1], 4u);
  EXPECT_EQ(staged.processed, 4);
  EXPECT_EQ(staged.failed, 1);
  EXPECT_EQ(workers.processed, 4);
  ASSERT_EQ(files_under(tmp / "staged"), std::set<std::string>(kGood.begin(), kGood.end()));
  for (const std::string& rel : kGood) EXPECT_EQ(read_bytes(tmp / "staged" / rel), read_bytes(tmp / "workers" / rel)) << rel;
}

std::vector<BatchItem> many_items(const TempDir& tmp, int n) {
  fs::create_directory(tmp / "in");
  write_image(tmp.file("in/000.png"), random_image(64, 48, 3, Depth::U8, 9));
  for (int i = 1; i < n; ++i) fs::copy_file(tmp / "in" / "000.png", tmp / "in" / (std::to_string(1000 + i) + ".png"));
  return plan_batch({{tmp.file("in")}, {}, true, ""}, tmp.file("out"), "");
}

// A failing device stops everything: no thread is left waiting on a queue,
// and the error comes back to the caller.
TEST(BatchStaged, ADeviceErrorStopsTheBatchAndIsRethrown) {
  TempDir tmp;
  const std::vector<BatchItem> items = many_items(tmp, 60);
  std::atomic<int> calls{0};
  Tally tally;
  const auto process = [&](Image&) {
    if (++calls == 3) throw DeviceError("cudaMemcpy: an illegal memory access was encountered");
  };
  EXPECT_THROW(run_batch_staged(items, cpu_settings(3), {process}, [] { return false; }, tally.report()), DeviceError);
  EXPECT_EQ(calls, 3);
  EXPECT_LE(tally.processed, 2);
  EXPECT_EQ(tally.failed, 0);
}

TEST(BatchStaged, StopsTakingFilesOnceAskedTo) {
  TempDir tmp;
  const std::vector<BatchItem> items = many_items(tmp, 60);
  Tally tally;
  const auto stop = [&] { return tally.processed >= 2; };
  run_batch_staged(items, cpu_settings(2), {[](Image&) {}}, stop, tally.report());
  EXPECT_GE(tally.processed, 2);
  EXPECT_LT(tally.processed, 60);
  EXPECT_EQ(files_under(tmp / "out").size(), static_cast<std::size_t>(tally.processed.load()));
}

// Another run sharing the output folder (--shard) may remove it, empty, as
// it ends, between an item's read and its write: the write makes it again.
TEST(BatchStaged, AWriteRemakesItsFolderGoneSinceTheRead) {
  TempDir tmp;
  const std::vector<BatchItem> items = many_items(tmp, 1);
  const Lane other_run_ends = [&](Image&) { ASSERT_TRUE(fs::remove(tmp / "out")); };
  Tally tally;
  run_batch_staged(items, cpu_settings(1), {other_run_ends}, [] { return false; }, tally.report());
  EXPECT_EQ(tally.processed, 1);
  EXPECT_EQ(files_under(tmp / "out"), std::set<std::string>{"000.png"});
}

// Several lanes work at once, as a GPU's upload, kernels and download of
// three images do, and every lane takes images from the one queue.
TEST(BatchStaged, LanesOverlapAndShareTheWork) {
  TempDir tmp;
  const std::vector<BatchItem> items = many_items(tmp, 60);
  std::atomic<int> busy{0}, most_busy{0};
  const Lane slow = [&](Image&) {
    const int now = ++busy;
    for (int seen = most_busy; now > seen && !most_busy.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    --busy;
  };
  Tally tally;
  const std::vector<std::size_t> per_lane =
      run_batch_staged(items, cpu_settings(4), {slow, slow, slow}, [] { return false; }, tally.report());
  EXPECT_EQ(tally.processed, 60);
  ASSERT_EQ(per_lane.size(), 3u);
  for (const std::size_t n : per_lane) EXPECT_GT(n, 0u);
  EXPECT_EQ(per_lane[0] + per_lane[1] + per_lane[2], 60u);
  EXPECT_GE(most_busy, 2) << "the lanes never ran at the same time";
}

}  // namespace
}  // namespace gpuimg::test
