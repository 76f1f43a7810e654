// A lane's work for one image: upload, every stage on the lane's stream
// between two device buffers, download, then a wait on an event. The event
// blocks rather than spins: in a batch the lane threads would otherwise each
// hold a core that the decoders and encoders need.
#include "cuda_lane.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_launch.hpp"
#include "cuda_resources.hpp"
#include "error.hpp"
#include "plan.hpp"
#include "table_pass.hpp"

namespace gpuimg {
namespace {

// Events between the steps of a run; each interval is one line of -v. A
// deque, because an Event does not move.
class Timeline {
 public:
  Timeline(std::size_t marks, cudaStream_t s) : stream_(s) {
    for (std::size_t i = 0; i < marks; ++i) events_.emplace_back(cudaEventDefault);
  }
  void mark() { check_cuda(cudaEventRecord(events_.at(next_++).get(), stream_), "recording an event"); }
  double ms(std::size_t from) const {
    float t = 0;
    check_cuda(cudaEventElapsedTime(&t, events_.at(from).get(), events_.at(from + 1).get()), "reading an event");
    return t;
  }

 private:
  std::deque<Event> events_;
  cudaStream_t stream_;
  std::size_t next_ = 0;
};

void select_device(int device) { check_cuda(cudaSetDevice(device), "selecting GPU " + std::to_string(device)); }

}  // namespace

struct CudaLane::State {
  State(const Pipeline& p, bool use_staging) : pipeline(p), staging_on(use_staging) {}
  Pipeline pipeline;
  bool staging_on;
  Stream stream;
  Event done{cudaEventBlockingSync | cudaEventDisableTiming};
  DeviceBuffer ping, pong, scratch, ops;  // ops: the planned records, then the stages' word tables
  std::vector<const std::uint32_t*> word_tables;  // per stage, in ops; null where it has none
  PinnedBuffer staging;
  // The plan last uploaded, for the input shape it was made for: images of
  // one shape, as a batch's often are, share it.
  std::optional<Shape> planned_for;
  Pipeline planned;
  // Each planned stage's data (stage_data in plan.hpp), on the host and in
  // `data` on the device; empty and null where it has none.
  std::vector<std::vector<std::int32_t>> host_data;
  std::vector<std::int32_t*> device_data;
  DeviceBuffer data;
  DeviceBuffer ranges;  // launch_channel_ranges' result

  void upload_plan(const Shape& input, cudaStream_t stream);
  void make_tables(std::size_t stage, const void* input, cudaStream_t stream);
};

// A table pass that reads its input's range waits for it here: the range
// comes back to the host, which makes the tables (a few microseconds at 8
// bits) and sends them up into the room upload_plan left.
void CudaLane::State::make_tables(std::size_t stage, const void* input, cudaStream_t stream) {
  const Shape& shape = planned[stage].in;
  ranges.reserve(8 * sizeof(unsigned), "the image's range");
  auto* lo_hi = static_cast<unsigned*>(ranges.get());
  check_cuda(launch_channel_ranges(input, shape, lo_hi, stream), "finding the image's range");
  unsigned found[8];
  check_cuda(cudaMemcpyAsync(found, lo_hi, sizeof found, cudaMemcpyDeviceToHost, stream), "finding the image's range");
  check_cuda(cudaStreamSynchronize(stream), "finding the image's range");
  std::vector<ChannelRange> range;
  for (int c = 0; c < colour_channels(shape); ++c) range.push_back({std::int32_t(found[2 * c]), std::int32_t(found[2 * c + 1])});
  host_data[stage] = pass_tables(planned, stage, range);
  check_cuda(cudaMemcpyAsync(device_data[stage], host_data[stage].data(),
                             sizeof(std::int32_t) * host_data[stage].size(), cudaMemcpyHostToDevice, stream),
             "uploading the stages' tables");
}

void CudaLane::State::upload_plan(const Shape& input, cudaStream_t stream) {
  planned = plan_pipeline(pipeline, input, UINT64_MAX, "the image", PlanFor::cuda);
  for (const OpRecord& rec : planned)
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      if constexpr (HasPrepareCuda<Op>::value) Op::prepare_cuda(rec.get<Op>(), rec.in);
    });
  planned_for = input;
  host_data.clear();
  std::vector<std::size_t> at;
  std::size_t entries = 0;
  for (std::size_t i = 0; i < planned.size(); ++i) {
    host_data.push_back(stage_data(planned, i));
    at.push_back(entries);
    entries += (host_data.back().size() + 3) / 4 * 4;  // each stage's data on a 16-byte boundary: bulk copies need it
  }
  data.reserve(sizeof(std::int32_t) * entries, "the stages' tables");
  device_data.clear();
  auto* base = static_cast<std::int32_t*>(data.get());
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const std::vector<std::int32_t>& d = host_data[i];
    device_data.push_back(d.empty() ? nullptr : base + at[i]);
    if (!d.empty())
      check_cuda(cudaMemcpyAsync(base + at[i], d.data(), sizeof(std::int32_t) * d.size(), cudaMemcpyHostToDevice,
                                 stream),
                 "uploading the stages' tables");
  }
  if (!planned.empty())
    check_cuda(cudaMemcpyAsync(ops.get(), planned.data(), sizeof(OpRecord) * planned.size(), cudaMemcpyHostToDevice,
                               stream),
               "uploading the pipeline");
}

CudaLane::CudaLane(int device, const Pipeline& pipeline, bool staging) : device_(device) {
  select_device(device);
  state_ = std::make_unique<State>(pipeline, staging);
  State& s = *state_;
  // The records go up with each plan (upload_plan); the word tables, which
  // depend on the parameters alone, once, after them.
  const std::size_t records = sizeof(OpRecord) * pipeline.size();
  std::vector<std::uint32_t> tables;
  std::vector<std::ptrdiff_t> table_at;  // entries into `tables`; -1 where a stage has none
  for (const OpRecord& rec : pipeline) {
    const std::vector<std::uint32_t> table = word_table(rec);
    table_at.push_back(table.empty() ? -1 : static_cast<std::ptrdiff_t>(tables.size()));
    tables.insert(tables.end(), table.begin(), table.end());
  }
  s.ops.reserve(records + sizeof(std::uint32_t) * tables.size(), "the pipeline");
  auto* first_table = reinterpret_cast<std::uint32_t*>(static_cast<unsigned char*>(s.ops.get()) + records);
  for (const std::ptrdiff_t at : table_at) s.word_tables.push_back(at < 0 ? nullptr : first_table + at);
  if (!tables.empty()) {
    check_cuda(cudaMemcpyAsync(first_table, tables.data(), sizeof(std::uint32_t) * tables.size(),
                               cudaMemcpyHostToDevice, s.stream.get()),
               "uploading the pipeline");
    check_cuda(cudaStreamSynchronize(s.stream.get()), "uploading the pipeline");
  }
}

// The stream, event and buffers belong to the lane's GPU, which need not be
// the destroying thread's current one. Unchecked: a destructor cannot throw,
// and a failure here leaves only what the process's end frees.
CudaLane::~CudaLane() { cudaSetDevice(device_); }

void CudaLane::run(Image& img, RunTimes* times) {
  select_device(device_);
  State& s = *state_;
  const cudaStream_t stream = s.stream.get();
  const Shape input = shape_of(img);
  const int stages = static_cast<int>(s.pipeline.size());
  if (s.planned_for != input) s.upload_plan(input, stream);
  const Shape output = planned_output(s.planned, input);
  const std::size_t in_bytes = input.byte_size(), out_bytes = output.byte_size();
  const std::size_t largest = std::max(largest_buffer(s.planned), in_bytes);
  s.ping.reserve(largest, "the image");
  s.pong.reserve(largest, "the image");
  s.scratch.reserve(scratch_bytes(s.planned), "stage scratch");
  void* host = img.data.data();
  if (s.staging_on) {
    s.staging.reserve(std::max(in_bytes, out_bytes), "staging the image");
    std::memcpy(s.staging.get(), host, in_bytes);
    host = s.staging.get();
  }
  std::optional<Timeline> timeline;
  if (times) timeline.emplace(stages + 3, stream);
  const auto mark = [&] {
    if (timeline) timeline->mark();
  };

  mark();
  check_cuda(cudaMemcpyAsync(s.ping.get(), host, in_bytes, cudaMemcpyHostToDevice, stream), "uploading the image");
  mark();
  void* src = s.ping.get();
  void* dst = s.pong.get();
  for (int i = 0; i < stages; ++i) {
    const OpRecord& rec = s.planned[i];
    if (rec.span == 0) {  // ran in the pass before it
      mark();
      continue;
    }
    if (is_table_stage(rec) && pass_reads_range(s.planned, i)) s.make_tables(i, src, stream);
    // A pass of tables alone is its lookup; otherwise its one stage that is
    // not a table runs it, with the tables before and after it.
    const PassParts parts = pass_parts(s.planned, i);
    const bool lookup = parts.core == parts.end;
    const std::size_t at = lookup ? parts.first : parts.core;
    const PassTables tables{!lookup && parts.first < parts.core ? s.device_data[parts.first] : nullptr,
                            parts.core + 1 < parts.end ? s.device_data[parts.core + 1] : nullptr};
    const CudaStage stage{src, dst, rec.in, s.planned[at].out, s.scratch.get(), stream, s.word_tables[at],
                          s.device_data[at], s.host_data[at].empty() ? nullptr : s.host_data[at].data(), tables};
    check_cuda(launch_stage(s.planned[at], static_cast<int>(at), stage, static_cast<const OpRecord*>(s.ops.get())),
               "launching stage " + std::to_string(at + 1) + " (" + describe(s.planned[at]) + ")");
    std::swap(src, dst);
    mark();
  }
  if (!s.staging_on) {
    img.data.resize(std::max(in_bytes, out_bytes));  // grows before the copy, shrinks after
    host = img.data.data();
  }
  check_cuda(cudaMemcpyAsync(host, src, out_bytes, cudaMemcpyDeviceToHost, stream), "downloading the image");
  mark();
  check_cuda(cudaEventRecord(s.done.get(), stream), "recording an event");
  check_cuda(cudaEventSynchronize(s.done.get()), "running the pipeline");
  img.data.resize(out_bytes);
  if (s.staging_on) std::memcpy(img.data.data(), s.staging.get(), out_bytes);
  img.width = output.width;
  img.height = output.height;
  img.channels = output.channels;

  if (times) {
    times->upload_ms = timeline->ms(0);
    for (int i = 0; i < stages; ++i) times->stage_ms.push_back(timeline->ms(1 + i));
    times->download_ms = timeline->ms(1 + stages);
  }
}

}  // namespace gpuimg
