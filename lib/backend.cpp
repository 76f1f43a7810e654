#include "backend.hpp"

#include "error.hpp"

namespace gpuimg {

BackendSelection select_backend(DeviceChoice choice) {
  if (choice == DeviceChoice::cpu) return {Backend::cpu, "--device cpu"};
  std::string detail;
  if (cuda_usable(&detail)) return {Backend::cuda, detail};
  if (choice == DeviceChoice::cuda) throw DeviceError("--device cuda: " + detail);
  return {Backend::cpu, detail};
}

std::vector<int> resolve_devices(const DeviceSet& set) {
  std::string detail;
  const int count = cuda_device_count();
  if (count == 0) {
    cuda_usable(&detail);  // says why there is none
    throw DeviceError("--devices: " + detail);
  }
  std::vector<int> devices = set.listed;
  if (set.all)
    for (int d = 0; d < count; ++d) devices.push_back(d);
  for (const int d : devices) {
    if (d >= count)
      throw UsageError("--devices: there is no GPU " + std::to_string(d) + "; this machine has " +
                       (count == 1 ? std::string("one, GPU 0") : std::to_string(count) + ", GPUs 0 to " + std::to_string(count - 1)));
    if (!cuda_device_usable(d, &detail)) throw DeviceError("--devices: GPU " + std::to_string(d) + ": " + detail);
  }
  return devices;
}

bool builds_kernels(const Pipeline& pipeline) {
  bool builds = false;
  for (const OpRecord& rec : pipeline)
    visit_op(rec.id, [&](auto tag) {
      using Op = typename decltype(tag)::type;
      if constexpr (HasPrepareCuda<Op>::value) builds = builds || Op::builds_kernel(rec.get<Op>());
    });
  return builds;
}

void run_pipeline(Backend backend, Image& img, const Pipeline& pipeline, RunTimes* times) {
  if (backend == Backend::cuda)
    run_cuda(img, pipeline, times);
  else
    run_cpu(img, pipeline, times);
}

}  // namespace gpuimg
