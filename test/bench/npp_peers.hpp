#pragma once
// NPP doing the work of gpuimg's ops, so the benchmark can time both on the
// same input and compare their bytes. Built only where CMake found NPP.
#include <string>

#include <cuda_runtime.h>
#include <nppdefs.h>

#include "cuda_launch.hpp"

namespace gpuimg {

class NppPeers {
 public:
  // NPP's _Ctx calls (the only ones CUDA 13 keeps) take the stream and the
  // device's limits in a context the caller fills.
  explicit NppPeers(cudaStream_t stream);
  ~NppPeers();
  NppPeers(const NppPeers&) = delete;
  NppPeers& operator=(const NppPeers&) = delete;

  // "13.0.3", for the table's notes.
  static std::string version();

  // The NPP function doing `rec`'s work on images of this layout, or nullptr
  // where NPP has none.
  static const char* function(const OpRecord& rec, int channels, int bytes_per_sample);

  // What run() needs beside the image, before it is timed, from the
  // stage's host data: a table stage's tables in NPP's layout, a Gaussian's
  // weights as NPP's float taps.
  void prepare(const OpRecord& rec, const CudaStage& s);

  // Enqueues that function on the context's stream, src to dst of `s`.
  NppStatus run(const OpRecord& rec, const CudaStage& s) const;

 private:
  NppStreamContext ctx_{};
  Npp32s* sharpen_kernel_ = nullptr;  // device copy of the 3x3 F = 1 kernel
  Npp8u* table8_ = nullptr;           // 256 entries, shared by the three channels
  Npp16u* table16_ = nullptr;         // 65536 entries
  Npp32f* gauss_taps_ = nullptr;      // 2r + 1 taps, r up to 300
};

}  // namespace gpuimg
