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

void run_pipeline(Backend backend, Image& img, const Pipeline& pipeline, RunTimes* times) {
  if (backend == Backend::cuda)
    run_cuda(img, pipeline, times);
  else
    run_cpu(img, pipeline, times);
}

}  // namespace gpuimg
