#include "batch_run.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <thread>

#include "bounded_queue.hpp"
#include "cuda_lane.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "joined.hpp"
#include "made_folders.hpp"
#include "planned_read.hpp"

namespace gpuimg {
namespace {

struct Decoded {
  const BatchItem* item;
  Image image;
  Metadata metadata;
};

class Batch {
 public:
  Batch(const std::vector<BatchItem>& items, const BatchSettings& settings, const std::function<bool()>& stop,
        const ReportFn& report)
      : items_(items), settings_(settings), stop_(stop), report_(report) {}

  // Each worker runs the pipeline on its share of the cores: every core
  // busy, none asked to run two threads of image work.
  void run_on_workers() {
    const int workers = static_cast<int>(std::min<std::size_t>(settings_.jobs, std::max<std::size_t>(1, items_.size())));
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads_each = std::max(1, cores / workers);
    run_workers(workers, [&] { cpu_worker(threads_each); });
    if (device_error_) std::rethrow_exception(device_error_);
  }

  std::vector<std::size_t> run_staged(const std::vector<Lane>& lanes) {
    std::vector<std::size_t> counts = run_pipeline_stages(lanes);
    if (device_error_) std::rethrow_exception(device_error_);
    return counts;
  }

 private:
  bool stopping() { return aborted_.load() || stop_(); }

  // The next item to start, or none once all are taken or the batch stops.
  const BatchItem* next() {
    if (stopping()) return nullptr;
    const std::size_t i = next_.fetch_add(1);
    return i < items_.size() ? &items_[i] : nullptr;
  }

  void finish(const BatchItem& item, Outcome outcome, const std::string& problem,
              const std::vector<std::string>& ignored = {}) {
    std::lock_guard<std::mutex> lock(report_mutex_);
    report_(item, outcome, problem, ignored);
  }

  // Runs step(); a file's failure is reported and false returned. A device
  // failure stops the whole batch.
  template <class F> bool attempt(const BatchItem& item, const F& step) {
    try {
      step();
      return true;
    } catch (const DeviceError&) {
      std::lock_guard<std::mutex> lock(report_mutex_);
      if (!device_error_) device_error_ = std::current_exception();
      aborted_ = true;
      return false;
    } catch (const Error& e) {
      finish(item, Outcome::failed, e.what());
    } catch (const std::bad_alloc&) {
      finish(item, Outcome::failed, item.input + ": out of memory");
    }
    return false;
  }

  void make_folder(const BatchItem& item) {
    if (const int err = folders_.make(parent_directory(item.output)))
      throw OutputError(item.output, "cannot create its folder: " + errno_text(err));
  }

  // What every item goes through before it is read: a problem found while
  // planning, an output naming its input, the output's folder.
  Decoded read(const BatchItem& item) {
    if (!item.problem.empty()) throw Error(ExitCode::failure, item.problem);
    make_folder(item);
    check_output_path(item.output, {item.input});
    UprightImage decoded = read_planned(item.input, settings_.pipeline, settings_.read);
    return {&item, std::move(decoded.image), std::move(decoded.metadata)};
  }

  void write(const Decoded& d) {
    if (stopping()) return;  // dropped: the batch is stopping
    // Again: another run sharing the output folder (--shard) may have
    // removed it, empty, as it ended, since this item was read.
    make_folder(*d.item);
    const std::vector<std::string> left_out = write_image(d.item->output, d.image, settings_.write, d.metadata);
    finish(*d.item, Outcome::processed, joined(left_out, "; "), d.metadata.ignored);
  }

  void cpu_worker(int threads) {
    while (const BatchItem* item = next()) {
      attempt(*item, [&] {
        Decoded d = read(*item);
        run_cpu(d.image, settings_.pipeline, nullptr, threads);
        write(d);
      });
    }
  }

  std::vector<std::size_t> run_pipeline_stages(const std::vector<Lane>& lanes) {
    const std::size_t depth = static_cast<std::size_t>(settings_.jobs);
    BoundedQueue<Decoded> decoded(depth), done(depth);
    std::atomic<int> decoders_left{settings_.jobs};
    std::atomic<std::size_t> lanes_left{lanes.size()};
    std::vector<std::size_t> counts(lanes.size(), 0);
    std::vector<std::thread> lane_threads;
    for (std::size_t i = 0; i < lanes.size(); ++i)
      lane_threads.emplace_back([&, i] {
        while (std::optional<Decoded> d = decoded.pop()) {
          if (!stopping() && attempt(*d->item, [&] { lanes[i](d->image); })) {
            ++counts[i];
            done.push(std::move(*d));
          }
          if (aborted_) decoded.close();  // wakes decoders waiting for room
        }
        if (--lanes_left == 0) done.close();
      });
    std::thread encoders([&] {
      run_workers(settings_.jobs, [&] {
        while (std::optional<Decoded> d = done.pop()) attempt(*d->item, [&] { write(*d); });
      });
    });
    run_workers(settings_.jobs, [&] {
      while (const BatchItem* item = next()) {
        Decoded d{item, {}, {}};
        if (attempt(*item, [&] { d = read(*item); }) && !decoded.push(std::move(d))) break;
      }
      if (--decoders_left == 0) decoded.close();
    });
    for (std::thread& t : lane_threads) t.join();
    encoders.join();
    return counts;
  }

  template <class F> static void run_workers(int n, const F& work) {
    std::vector<std::thread> threads;
    for (int i = 1; i < n; ++i) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
  }

  const std::vector<BatchItem>& items_;
  const BatchSettings& settings_;
  const std::function<bool()>& stop_;
  const ReportFn& report_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> aborted_{false};
  std::mutex report_mutex_;
  std::exception_ptr device_error_;
  MadeFolders folders_;  // last: its folders are removed once the threads are done
};

}  // namespace

std::vector<std::size_t> run_batch(const std::vector<BatchItem>& items, const BatchSettings& settings,
                                   const std::function<bool()>& stop, const ReportFn& report) {
  if (settings.backend == Backend::cpu) {
    Batch(items, settings, stop, report).run_on_workers();
    return {};
  }
  std::vector<std::unique_ptr<CudaLane>> cuda_lanes;
  std::vector<Lane> lanes;
  for (const int device : settings.devices)
    for (int i = 0; i < kLanesPerDevice; ++i) {
      cuda_lanes.push_back(std::make_unique<CudaLane>(device, settings.pipeline, true));
      lanes.push_back([lane = cuda_lanes.back().get()](Image& img) { lane->run(img); });
    }
  const std::vector<std::size_t> per_lane = run_batch_staged(items, settings, lanes, stop, report);
  std::vector<std::size_t> per_device(settings.devices.size(), 0);
  for (std::size_t i = 0; i < per_lane.size(); ++i) per_device[i / kLanesPerDevice] += per_lane[i];
  return per_device;
}

std::vector<std::size_t> run_batch_staged(const std::vector<BatchItem>& items, const BatchSettings& settings,
                                          const std::vector<Lane>& lanes, const std::function<bool()>& stop,
                                          const ReportFn& report) {
  if (lanes.empty()) throw std::invalid_argument("run_batch_staged: no lanes");  // nothing would drain the queues
  return Batch(items, settings, stop, report).run_staged(lanes);
}

}  // namespace gpuimg
