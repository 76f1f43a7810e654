// Times each op's kernels on the GPU against a device-to-device copy of the
// same bytes (the memory-bandwidth limit) and, where CMake found NPP, NPP
// doing the same work, whose bytes it compares with gpuimg's. CUDA events:
// warm-up, then the median of many runs, rotating over enough buffers that
// no run finds its input in the 50 MB L2.
//
// Prints one tab-separated row per (op, size, type, impl) with the image's
// byte count, the median milliseconds and, for a peer, whether its output
// equals gpuimg's. scripts/bench_gpu.sh feeds these rows to the CuPy peers
// and merges everything into one table.
// Usage: gpuimg_bench [most repetitions [only]]: `only` is a list of words
// separated by commas, each an op's name (the entries whose first op it is)
// or an entry's label as the table prints it (`median_R=1`). With
// GPUIMG_BENCH_PEERS=0 in the environment, gpuimg's rows alone: an A/B of
// two builds needs no peer measured again.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_launch.hpp"
#include "median_paths.hpp"
#include "pipeline.hpp"
#include "plan.hpp"
#include "table_pass.hpp"
#if GPUIMG_BENCH_NPP
#include "npp_peers.hpp"
#endif

namespace {

using namespace gpuimg;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

struct BenchShape {
  int width, height, channels, bytes_per_sample;
  const char* name;
};

// Timed runs of one row take about this long, at least 3 and at most the
// command line's count of them: NPP's box and median filters are O(r^2),
// and a fixed count at large radii would take minutes.
constexpr double kBudgetMs = 400;
// A run this slow is its own warm-up.
constexpr double kSlowMs = 50;

class Timer {
 public:
  explicit Timer(cudaStream_t s) : s_(s) {
    check(cudaEventCreate(&a_), "cudaEventCreate");
    check(cudaEventCreate(&b_), "cudaEventCreate");
  }
  ~Timer() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Median milliseconds of run(i), which enqueues on the stream; i counts
  // the runs, so that run can rotate buffers.
  template <class F> double median_ms(int most, F run) {
    int i = 0;
    double estimate = once(run, i++);
    if (estimate < kSlowMs) {
      run(i++);
      run(i++);
      estimate = once(run, i++);
    }
    const int reps = std::clamp(static_cast<int>(kBudgetMs / std::max(estimate, 1e-3)), 3, std::max(3, most));
    std::vector<float> t;
    for (int k = 0; k < reps; ++k) t.push_back(once(run, i++));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }

 private:
  template <class F> float once(F& run, int i) {
    check(cudaEventRecord(a_, s_), "cudaEventRecord");
    run(i);
    check(cudaEventRecord(b_, s_), "cudaEventRecord");
    check(cudaEventSynchronize(b_), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a_, b_), "cudaEventElapsedTime");
    return ms;
  }

  cudaStream_t s_;
  cudaEvent_t a_, b_;
};

void row(const std::string& op, const std::string& size, const char* type, const char* impl, std::size_t bytes,
         const std::string& ms, const std::string& note) {
  std::printf("%s\t%s\t%s\t%s\t%zu\t%s\t%s\n", op.c_str(), size.c_str(), type, impl, bytes, ms.c_str(), note.c_str());
  std::fflush(stdout);
}

std::string format_ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", ms);
  return text;
}

std::string label(const OpRecord& rec) {
  std::string text = describe(rec);
  std::replace(text.begin(), text.end(), ' ', '_');
  return text;
}

// A fused pass: its stages' labels joined by '+'.
std::string label(const Pipeline& pass) {
  std::string text;
  for (const OpRecord& rec : pass) text += (text.empty() ? "" : "+") + label(rec);
  return text;
}

// One image shape's buffers: `sets` inputs, all holding the same random
// bytes, and as many outputs (of out_bytes, the largest any stage writes),
// so consecutive runs rotate past the L2.
class Frames {
 public:
  Frames(const BenchShape& sh, std::size_t scratch, std::size_t out_bytes, cudaStream_t s) : sh_(sh), s_(s) {
    bytes_ = std::size_t(sh.width) * sh.height * sh.channels * sh.bytes_per_sample;
    out_bytes_ = std::max(out_bytes, bytes_);
    sets_ = static_cast<int>(std::max<std::size_t>(2, (400u << 20) / (bytes_ + out_bytes_)));
    std::vector<unsigned char> host(bytes_);
    std::mt19937 rng(1);
    for (auto& b : host) b = static_cast<unsigned char>(rng());
    src_.assign(sets_, nullptr);
    dst_.assign(sets_, nullptr);
    for (int i = 0; i < sets_; ++i) {
      check(cudaMalloc(&src_[i], bytes_), "cudaMalloc");
      check(cudaMalloc(&dst_[i], out_bytes_), "cudaMalloc");
      check(cudaMemcpy(src_[i], host.data(), bytes_, cudaMemcpyHostToDevice), "upload");
    }
    check(cudaMalloc(&scratch_, scratch), "cudaMalloc");
  }
  ~Frames() {
    for (void* p : src_) cudaFree(p);
    for (void* p : dst_) cudaFree(p);
    cudaFree(scratch_);
  }
  Frames(const Frames&) = delete;
  Frames& operator=(const Frames&) = delete;

  std::size_t bytes() const { return bytes_; }
  // Run i's input and output, for a stage with this word table and data.
  CudaStage stage(int i, const OpRecord& rec, const std::uint32_t* word_table = nullptr,
                  const std::int32_t* data = nullptr, const std::int32_t* host_data = nullptr,
                  PassTables tables = {}) const {
    return CudaStage{src_[i % sets_], dst_[i % sets_], rec.in, rec.out, scratch_, s_, word_table, data, host_data,
                     tables};
  }
  void copy(int i) const {
    check(cudaMemcpyAsync(dst_[i % sets_], src_[i % sets_], bytes_, cudaMemcpyDeviceToDevice, s_), "copy");
  }
  // The first output: every run writes the same bytes, so this is any run's.
  void* output() const { return dst_[0]; }

 private:
  BenchShape sh_;
  cudaStream_t s_;
  std::size_t bytes_ = 0, out_bytes_ = 0;
  int sets_ = 0;
  std::vector<void*> src_, dst_;
  void* scratch_ = nullptr;
};

std::string size_name(const BenchShape& sh) { return std::to_string(sh.width) + "x" + std::to_string(sh.height); }

std::vector<unsigned char> download(const void* d, std::size_t bytes) {
  std::vector<unsigned char> h(bytes);
  check(cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost), "download");
  return h;
}

// "equal", or how many samples of b (the peer's) differ from a (gpuimg's),
// by how much at most, and how many of them are lower.
template <class T> std::string compare_samples(const unsigned char* a, const unsigned char* b, std::size_t bytes) {
  const std::size_t n = bytes / sizeof(T);
  std::size_t differ = 0, lower = 0;
  int most = 0;
  for (std::size_t i = 0; i < n; ++i) {
    T x, y;
    std::memcpy(&x, a + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b + i * sizeof(T), sizeof(T));
    if (x != y) {
      ++differ;
      lower += y < x;
      most = std::max(most, std::abs(int(x) - int(y)));
    }
  }
  if (differ == 0) return "equal";
  char text[128];
  std::snprintf(text, sizeof text, "differs: %zu samples (%.3g%%), max |d| %d, %.3g%% of them lower", differ,
                100.0 * differ / n, most, 100.0 * lower / differ);
  return text;
}

std::string compare(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b, int bytes_per_sample) {
  return bytes_per_sample == 1 ? compare_samples<std::uint8_t>(a.data(), b.data(), a.size())
                               : compare_samples<std::uint16_t>(a.data(), b.data(), a.size());
}

// The median's other path at the radii its networks take: the histograms
// at 8 bits, the radix select at 16, as a row of its own beside gpuimg's,
// so that a run shows where Median::kMaxGpuNetworkRadius should lie. Its
// bytes are compared with gpuimg's, whose output is then restored for the
// rows after it.
void median_other_path(Timer& timer, int most, const OpRecord& rec, const BenchShape& sh, const Frames& f,
                       const CudaStage& gpuimg_stage, const OpRecord* d_op) {
  if (rec.id != OpId::Median || rec.get<Median>().radius > Median::kMaxGpuNetworkRadius) return;
  const int radius = rec.get<Median>().radius;
  const bool bytes8 = sh.bytes_per_sample == 1;
  const std::size_t out_bytes = rec.out.byte_size();
  const auto reference = download(f.output(), out_bytes);
  const double ms = timer.median_ms(most, [&](int i) {
    const CudaStage stage = f.stage(i, rec);
    check(bytes8 ? launch_median_histogram(stage, radius) : launch_median_radix(stage, radius), "median launch");
  });
  row(label(rec), size_name(sh), sh.name, bytes8 ? "histogram" : "radix", f.bytes(), format_ms(ms),
      compare(reference, download(f.output(), out_bytes), sh.bytes_per_sample));
  check(launch_stage(rec, 0, gpuimg_stage, d_op), "gpuimg launch");
}

#if GPUIMG_BENCH_NPP
// An NPP box or median filter predicted to take longer than this a run is skipped.
constexpr double kSkipMs = 1500;

// The radius of a blur or a median, whose NPP run time grows with its
// mask's area; 0 for other ops.
int filter_radius(const OpRecord& rec) {
  if (rec.id == OpId::Blur) return rec.get<Blur>().radius;
  if (rec.id == OpId::Median) return rec.get<Median>().radius;
  return 0;
}

// "equal", or how the peer's bytes differ, inside a border of `margin`
// pixels that the peer leaves unwritten.
std::string compare_inside(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                           const Shape& shape, int margin) {
  if (margin == 0) return compare(a, b, shape.bytes);
  const std::size_t row = std::size_t(shape.width) * shape.channels * shape.bytes;
  const std::size_t skip = std::size_t(margin) * shape.channels * shape.bytes;
  std::vector<unsigned char> ia, ib;
  for (int y = margin; y < shape.height - margin; ++y) {
    const std::size_t from = y * row + skip, to = (y + 1) * row - skip;
    ia.insert(ia.end(), a.begin() + from, a.begin() + to);
    ib.insert(ib.end(), b.begin() + from, b.begin() + to);
  }
  const std::string verdict = compare(ia, ib, shape.bytes);
  return verdict + " inside the " + std::to_string(margin) + "-pixel border NPP leaves unwritten";
}

// NPP's row for each op it has, measured right after gpuimg's, whose output
// is still in the frames.
class NppRows {
 public:
  explicit NppRows(cudaStream_t s) : npp_(s) {}

  void next_shape() { last_radius_ = 0; }

  void measure(Timer& timer, int most, const OpRecord& rec, const BenchShape& sh, const Frames& f,
               const CudaStage& gpuimg_stage) {
    if (!NppPeers::function(rec, sh.channels, sh.bytes_per_sample)) return;
    const std::string op = label(rec);
    const int radius = filter_radius(rec);
    if (radius > 0 && rec.id == last_id_ && last_radius_ > 0) {
      const double grow = double(2 * radius + 1) / (2 * last_radius_ + 1);
      const double predicted = last_ms_ * grow * grow;
      if (predicted > kSkipMs) {
        char note[96];
        std::snprintf(note, sizeof note, "skipped: about %.1f s a run (O(r^2) from R=%d)", predicted / 1000,
                      last_radius_);
        row(op, size_name(sh), sh.name, "npp", f.bytes(), "-", note);
        return;
      }
    }
    const std::size_t out_bytes = rec.out.byte_size();
    const auto reference = download(f.output(), out_bytes);
    check(cudaMemset(f.output(), 0, out_bytes), "cudaMemset");
    npp_.prepare(rec, gpuimg_stage);
    NppStatus status = NPP_NO_ERROR;
    const double ms = timer.median_ms(most, [&](int i) {
      CudaStage stage = f.stage(i, rec);
      stage.data = gpuimg_stage.data;
      stage.host_data = gpuimg_stage.host_data;
      const NppStatus st = npp_.run(rec, stage);
      if (st != NPP_NO_ERROR && status == NPP_NO_ERROR) status = st;
    });
    if (status < 0) {
      row(op, size_name(sh), sh.name, "npp", f.bytes(), "-", "NPP error " + std::to_string(status));
      return;
    }
    if (radius > 0) {
      last_id_ = rec.id;
      last_ms_ = ms;
      last_radius_ = radius;
    }
    const std::string warning = status > 0 ? "NPP warning " + std::to_string(status) + "; " : "";
    row(op, size_name(sh), sh.name, "npp", f.bytes(), format_ms(ms),
        warning + compare_inside(reference, download(f.output(), out_bytes), rec.out, NppPeers::margin(rec)));
  }

 private:
  NppPeers npp_;
  // The last blur or median NPP ran on this shape, to predict the next one's time.
  OpId last_id_ = OpId::Blur;
  double last_ms_ = 0;
  int last_radius_ = 0;
};
#endif

int bench(int most, const std::string& only) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("# device: %s, %d SMs, %d MB L2\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  std::printf("# most runs: %d\n", most);
#if GPUIMG_BENCH_NPP
  std::printf("# npp: %s\n", NppPeers::version().c_str());
#endif
  std::printf("op\tsize\ttype\timpl\tbytes\tms\tnote\n");

  const std::vector<BenchShape> shapes = {{1920, 1080, 3, 1, "rgb8"},  {3840, 2160, 3, 1, "rgb8"},
                                     {7680, 4320, 3, 1, "rgb8"},  {1920, 1080, 1, 2, "gray16"},
                                     {3840, 2160, 1, 2, "gray16"}, {7680, 4320, 1, 2, "gray16"}};
  // Each entry one pass on the GPU: one stage, table stages that fuse, or
  // those around a stage that takes their tables.
  std::vector<Pipeline> entries;
  for (const char* op : {"invert", "grayscale", "flip", "flop", "transpose"}) entries.push_back({parse_stage(op, {})});
  entries.push_back({parse_stage("sharpen", {"1"})});
  entries.push_back({parse_stage("sharpen", {"0.7"})});
  entries.push_back({parse_stage("rotate", {"90"})});
  entries.push_back({parse_stage("rotate", {"180"})});
  entries.push_back({parse_stage("crop", {"1x1"})});
  entries.push_back({parse_stage("levels", {"5%,95%,1.2"})});
  entries.push_back({parse_stage("levels", {"5%,95%"}), parse_stage("gamma", {"1.8"}),
                     parse_stage("linear", {"1.2,-0.1"}), parse_stage("invert", {}),
                     parse_stage("threshold", {"30%"})});
  entries.push_back({parse_stage("normalize", {})});
  // Issue 22's example: the GPU runs the tables in the blur's load and
  // store (8-bit only); the same around the Gaussian and the median.
  for (const char* op : {"blur", "gaussian", "median"})
    entries.push_back({parse_stage("levels", {"5%,95%"}), parse_stage("gamma", {"1.8"}),
                       parse_stage(op, {op == std::string("blur") ? "3" : "1"}), parse_stage("invert", {})});
  for (const char* r : {"1", "3", "8", "25", "64", "256"}) entries.push_back({parse_stage("blur", {r})});
  for (const char* r : {"1", "2", "3", "7"}) entries.push_back({parse_stage("median", {r})});
  // 5x5 convolutions: box-like and fixed random integers (the exact path,
  // beside NPP), and fractions (the double path).
  for (const char* kernel : {"5x5:1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
                             "5x5:1,-2,3,0,2,1,-1,3,2,0,5,9,5,0,2,3,-1,1,4,2,0,3,-2,1,4",
                             "5x5:0.1,-0.2,0.3,0,0.2,0.1,-0.1,0.3,0.2,0,0.5,0.9,0.5,0,0.2,0.3,-0.1,0.1,0.4,0.2,0,0.3,-0.2,0.1,0.4"})
    entries.push_back({parse_stage("convolve", {kernel})});
  for (const char* sigma : {"1", "3", "10"}) entries.push_back({parse_stage("gaussian", {sigma})});
  entries.push_back({parse_stage("unsharp", {"3,1.5,2%"})});
  for (const char* size : {"50%", "200%"})
    for (const char* filter : Resize::filters) entries.push_back({parse_stage("resize", {std::string(size) + ":" + filter})});
  // --map: the ten operations of x, y and v (a vignette), one with
  // our own transcendental functions, and tables around a kernel.
  for (const char* expression : {"v*(1-0.8*((x/w-0.5)*(x/w-0.5)+(y/h-0.5)*(y/h-0.5)))",
                                 "v*(0.75+0.25*sin(x/w*9)*cos(y/h*7))"})
    entries.push_back({parse_stage("map", {expression})});
  entries.push_back({parse_stage("levels", {"5%,95%"}), parse_stage("map", {"v*(1-0.5*hypot(x/w-0.5,y/h-0.5))"}),
                     parse_stage("invert", {})});

  // Only the entries named, by their first op or their label, for a quick look at a few.
  if (!only.empty()) {
    const auto named = [&](const std::string& word) {
      return ("," + only + ",").find("," + word + ",") != std::string::npos;
    };
    entries.erase(std::remove_if(entries.begin(), entries.end(),
                                 [&](const Pipeline& e) { return !named(op_name(e.front().id)) && !named(label(e)); }),
                  entries.end());
  }
  const char* peers_env = std::getenv("GPUIMG_BENCH_PEERS");
  const bool peers = peers_env == nullptr || std::strcmp(peers_env, "0") != 0;

  cudaStream_t s;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  Timer timer(s);
  OpRecord* d_op = nullptr;
  check(cudaMalloc(&d_op, sizeof(OpRecord)), "cudaMalloc");
  unsigned* d_ranges = nullptr;
  check(cudaMalloc(&d_ranges, 8 * sizeof(unsigned)), "cudaMalloc");
  std::uint32_t* d_table = nullptr;
  check(cudaMalloc(&d_table, sizeof(std::uint32_t) * Sharpen::word_table_size), "cudaMalloc");
#if GPUIMG_BENCH_NPP
  NppRows npp(s);
#endif
  for (const BenchShape& sh : shapes) {
    // Each entry planned alone, for this input shape. The crop keeps the
    // middle 3/4 of each side.
    const Shape input{sh.width, sh.height, sh.channels, sh.bytes_per_sample};
    std::vector<Pipeline> plans;
    for (Pipeline entry : entries) {
      if (entry.front().id == OpId::Crop)
        entry = {parse_stage("crop", {std::to_string(sh.width * 3 / 4) + "x" + std::to_string(sh.height * 3 / 4)})};
      plans.push_back(plan_pipeline(entry, input, UINT64_MAX, "the image", PlanFor::cuda));
      if (plans.back().front().span == static_cast<int>(entry.size())) continue;
      // Tables around a stage are their own passes at 16 bits: no row.
      if (std::all_of(entry.begin(), entry.end(), is_table_stage))
        throw std::logic_error("a benchmark entry is not one pass");
      plans.pop_back();
    }
    std::size_t out_bytes = 0, scratch = 0;
    for (const Pipeline& plan : plans) {
      out_bytes = std::max<std::size_t>(out_bytes, plan.front().out.byte_size());
      scratch = std::max(scratch, scratch_bytes(plan));
    }
    const Frames f(sh, scratch, out_bytes, s);
    const std::string size = size_name(sh);
    const double copy = timer.median_ms(most, [&](int i) { f.copy(i); });
    row("copy", size, sh.name, "cudaMemcpy", f.bytes(), format_ms(copy), "");
#if GPUIMG_BENCH_NPP
    npp.next_shape();
#endif
    for (const Pipeline& plan : plans) {
      const PassParts parts = pass_parts(plan, 0);
      const bool lookup = parts.core == parts.end;
      const bool around = !lookup && parts.end - parts.first > 1;  // tables run in a stage's load or store
      const OpRecord& rec = plan[lookup ? 0 : parts.core];
      // A kernel made at run time is compiled before it is timed.
      visit_op(rec.id, [&](auto tag) {
        using Op = typename decltype(tag)::type;
        if constexpr (HasPrepareCuda<Op>::value) Op::prepare_cuda(rec.get<Op>(), rec.in);
      });
      check(cudaMemcpy(d_op, &rec, sizeof rec, cudaMemcpyHostToDevice), "upload op");
      const std::vector<std::uint32_t> table = word_table(rec);
      check(cudaMemcpy(d_table, table.data(), sizeof(std::uint32_t) * table.size(), cudaMemcpyHostToDevice),
            "upload word table");
      const std::uint32_t* stage_table = table.empty() ? nullptr : d_table;
      // A pass that reads its input's range has tables made from it (the
      // lane's make_tables); the inputs are uniform, so their range is
      // the whole.
      const bool reads_range = is_table_stage(rec) && pass_reads_range(plan, 0);
      const std::vector<ChannelRange> whole(4, ChannelRange{0, rec.in.bytes == 1 ? 255 : 65535});
      const std::vector<std::int32_t> data =
          reads_range ? pass_tables(plan, 0, whole) : stage_data(plan, lookup ? 0 : parts.core);
      const auto upload = [](const std::vector<std::int32_t>& words) {
        std::int32_t* d = nullptr;
        if (!words.empty()) {
          check(cudaMalloc(&d, sizeof(std::int32_t) * words.size()), "cudaMalloc");
          check(cudaMemcpy(d, words.data(), sizeof(std::int32_t) * words.size(), cudaMemcpyHostToDevice),
                "upload stage data");
        }
        return d;
      };
      std::int32_t* d_data = upload(data);
      const std::int32_t* host_data = data.empty() ? nullptr : data.data();
      // A pass around a stage: the tables of the runs before and after it.
      std::int32_t* d_load = !lookup && parts.first < parts.core ? upload(stage_data(plan, parts.first)) : nullptr;
      std::int32_t* d_store = parts.core + 1 < parts.end ? upload(stage_data(plan, parts.core + 1)) : nullptr;
      const PassTables tables{d_load, d_store};
      // A pass that reads its input's range runs the reduction first; the
      // range's trip to the host and back as tables is not in the time.
      const double ms = timer.median_ms(most, [&](int i) {
        const CudaStage stage = f.stage(i, rec, stage_table, d_data, host_data, tables);
        if (reads_range) check(launch_channel_ranges(stage.src, rec.in, d_ranges, s), "gpuimg range");
        check(launch_stage(rec, 0, stage, d_op), "gpuimg launch");
      });
      // Half of what the stage reads and writes: the table's GB/s counts 2x.
      row(label(plan), size, sh.name, "gpuimg", (rec.in.byte_size() + rec.out.byte_size()) / 2, format_ms(ms), "");
      if (peers && !around) {  // the peers have no such pass
        median_other_path(timer, most, rec, sh, f, f.stage(0, rec, stage_table, d_data, host_data), d_op);
#if GPUIMG_BENCH_NPP
        npp.measure(timer, most, rec, sh, f, f.stage(0, rec, stage_table, d_data, host_data));
#endif
      }
      for (std::int32_t* d : {d_data, d_load, d_store}) check(cudaFree(d), "cudaFree");
    }
  }
  check(cudaFree(d_op), "cudaFree");
  check(cudaFree(d_table), "cudaFree");
  check(cudaFree(d_ranges), "cudaFree");
  check(cudaDeviceSynchronize(), "final sync");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return bench(argc > 1 ? std::atoi(argv[1]) : 30, argc > 2 ? argv[2] : "");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpuimg_bench: %s\n", e.what());
    return 1;
  }
}
