#pragma once
// NPP doing the work of gpuimg's ops, so the benchmark can time both on the
// same input and compare their bytes. Built only where CMake found NPP.
#include <cstddef>
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

  // What run() needs beside the image, before it is timed: a table
  // stage's tables in NPP's layout, from the stage's host data; a
  // convolution's weights; a Gaussian's weights as NPP's float taps.
  void prepare(const OpRecord& rec, const CudaStage& s);

  // Enqueues that function on the context's stream, src to dst of `s`.
  NppStatus run(const OpRecord& rec, const CudaStage& s);

  // The border, in pixels, that the function leaves unwritten: NPP's
  // median has no border mode and reads R pixels past its region, so it
  // runs on the pixels at least R from every edge.
  static int margin(const OpRecord& rec) { return rec.id == OpId::Median ? rec.get<Median>().radius : 0; }

 private:
  // Scratch for the median, from nppiFilterMedianGetBufferSize: grown to
  // the largest asked for, so that only a row's first run allocates.
  Npp8u* scratch(std::size_t bytes);

  NppStreamContext ctx_{};
  Npp32s* sharpen_kernel_ = nullptr;  // device copy of the 3x3 F = 1 kernel
  Npp32s* convolve_kernel_ = nullptr;  // a convolution's weights reversed, as NPP takes them
  Npp32s convolve_divisor_ = 1;
  Npp8u* table8_ = nullptr;           // 256 entries, shared by the three channels
  Npp16u* table16_ = nullptr;         // 65536 entries
  Npp32f* gauss_taps_ = nullptr;      // 2r + 1 taps, r up to 300
  Npp8u* scratch_ = nullptr;
  std::size_t scratch_bytes_ = 0;
};

}  // namespace gpuimg
