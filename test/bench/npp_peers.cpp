#include "npp_peers.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nppcore.h>
#include <nppi_arithmetic_and_logical_operations.h>
#include <nppi_color_conversion.h>
#include <nppi_data_exchange_and_initialization.h>
#include <nppi_filtering_functions.h>
#include <nppi_geometry_transforms.h>

#include "number_lists.hpp"

namespace gpuimg {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("NPP setup: ") + what + ": " + cudaGetErrorString(e));
}

// gpuimg's sharpen at F = 1 is this integer kernel exactly, so NPP's integer
// filter with divisor 1 does the same work. Symmetric, so NPP's reversed
// coefficient order does not matter.
constexpr Npp32s kSharpen[9] = {0, -1, 0, -1, 5, -1, 0, -1, 0};

// NPP's nearest equivalent of a resize's filter; -1 where it has none.
// NPPI_INTER_SUPER averages like box, but only when shrinking.
int resize_interpolation(const OpRecord& rec) {
  switch (Resize::filter(rec.get<Resize>())) {
    case ResizeFilter::nearest: return NPPI_INTER_NN;
    case ResizeFilter::box: return rec.out.width < rec.in.width ? NPPI_INTER_SUPER : -1;
    case ResizeFilter::linear: return NPPI_INTER_LINEAR;
    case ResizeFilter::cubic: return NPPI_INTER_CUBIC;
    case ResizeFilter::lanczos3: return NPPI_INTER_LANCZOS;
  }
  return -1;
}

// NPP's integer filter takes a convolution whose weights are integers and
// whose sum, its divisor, is positive.
bool npp_convolves(const OpRecord& rec) {
  double sum = 0;
  for (double k : number_list(rec.get<Convolve>().weights)) {
    if (k != std::floor(k)) return false;
    sum += k;
  }
  return sum > 0;
}

bool is_rgb8(int channels, int bytes) { return channels == 3 && bytes == 1; }
bool is_gray16(int channels, int bytes) { return channels == 1 && bytes == 2; }

}  // namespace

NppPeers::NppPeers(cudaStream_t stream) {
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  unsigned flags = 0;
  check(cudaStreamGetFlags(stream, &flags), "cudaStreamGetFlags");
  ctx_.hStream = stream;
  ctx_.nCudaDeviceId = device;
  ctx_.nMultiProcessorCount = prop.multiProcessorCount;
  ctx_.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx_.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx_.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx_.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx_.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  ctx_.nStreamFlags = flags;
  check(cudaMalloc(&sharpen_kernel_, sizeof kSharpen), "cudaMalloc");
  check(cudaMemcpy(sharpen_kernel_, kSharpen, sizeof kSharpen, cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMalloc(&convolve_kernel_, sizeof(Npp32s) * Convolve::kMaxSide * Convolve::kMaxSide), "cudaMalloc");
  check(cudaMalloc(&table8_, 256), "cudaMalloc");
  check(cudaMalloc(&table16_, 65536 * sizeof(Npp16u)), "cudaMalloc");
  check(cudaMalloc(&gauss_taps_, 601 * sizeof(Npp32f)), "cudaMalloc");
}

NppPeers::~NppPeers() {
  cudaFree(sharpen_kernel_);
  cudaFree(convolve_kernel_);
  cudaFree(table8_);
  cudaFree(table16_);
  cudaFree(scratch_);
  cudaFree(gauss_taps_);
}

void NppPeers::prepare(const OpRecord& rec, const CudaStage& s) {
  if (rec.id == OpId::Convolve) {
    // NPP convolves: the last coefficient meets the top-left neighbour.
    const std::vector<double>& weights = number_list(rec.get<Convolve>().weights);
    const std::vector<Npp32s> reversed(weights.rbegin(), weights.rend());
    convolve_divisor_ = 0;
    for (Npp32s k : reversed) convolve_divisor_ += k;
    check(cudaMemcpy(convolve_kernel_, reversed.data(), sizeof(Npp32s) * reversed.size(), cudaMemcpyHostToDevice),
          "cudaMemcpy");
    return;
  }
  if (rec.id == OpId::Gaussian && s.host_data) {
    // gpuimg's own weights, w_|i| / 2^K: NPP does the same sums in float.
    const int r = s.host_data[0];
    const float unit = s.in.bytes == 1 ? 0x1p-22f : 0x1p-27f;
    std::vector<Npp32f> taps(2 * r + 1);
    for (int i = -r; i <= r; ++i) taps[i + r] = s.host_data[kGaussianWeightsAt + (i < 0 ? -i : i)] * unit;
    check(cudaMemcpy(gauss_taps_, taps.data(), taps.size() * sizeof(Npp32f), cudaMemcpyHostToDevice), "cudaMemcpy");
    return;
  }
  if (rec.id != OpId::Levels || !s.host_data) return;
  // The pass's data: a word saying the colour channels share one table, then it.
  const std::int32_t* table = s.host_data + 1;
  if (s.in.bytes == 1) {
    Npp8u narrow[256];
    for (int v = 0; v < 256; ++v) narrow[v] = static_cast<Npp8u>(table[v]);
    check(cudaMemcpy(table8_, narrow, sizeof narrow, cudaMemcpyHostToDevice), "cudaMemcpy");
  } else {
    std::vector<Npp16u> narrow(65536);
    for (int v = 0; v < 65536; ++v) narrow[v] = static_cast<Npp16u>(table[v]);
    check(cudaMemcpy(table16_, narrow.data(), 65536 * sizeof(Npp16u), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
}

Npp8u* NppPeers::scratch(std::size_t bytes) {
  if (bytes > scratch_bytes_) {
    check(cudaFree(scratch_), "cudaFree");
    scratch_ = nullptr;
    check(cudaMalloc(&scratch_, bytes), "cudaMalloc");
    scratch_bytes_ = bytes;
  }
  return scratch_;
}

std::string NppPeers::version() {
  const NppLibraryVersion* v = nppGetLibVersion();
  return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->build);
}

const char* NppPeers::function(const OpRecord& rec, int channels, int bytes) {
  const bool rgb8 = is_rgb8(channels, bytes), gray16 = is_gray16(channels, bytes);
  switch (rec.id) {
    case OpId::Invert:
      // NPP has no 16-bit Not; XOR with 0xFFFF is 65535 - v exactly.
      return rgb8 ? "nppiNot_8u_C3R_Ctx" : gray16 ? "nppiXorC_16u_C1R_Ctx" : nullptr;
    case OpId::Levels:
      // One stage alone: NPP looks up the same table; it has no fusion.
      if (rec.span != 1) return nullptr;
      return rgb8 ? "nppiLUTPalette_8u_C3R_Ctx" : gray16 ? "nppiLUTPalette_16u_C1R_Ctx" : nullptr;
    case OpId::Sharpen:
      if (rec.get<Sharpen>().amount != 1.0) return nullptr;
      return rgb8 ? "nppiFilterBorder_8u_C3R_Ctx" : gray16 ? "nppiFilterBorder_16u_C1R_Ctx" : nullptr;
    case OpId::Blur:
      return rgb8 ? "nppiFilterBoxBorder_8u_C3R_Ctx" : gray16 ? "nppiFilterBoxBorder_16u_C1R_Ctx" : nullptr;
    case OpId::Median:
      return rgb8 ? "nppiFilterMedian_8u_C3R_Ctx" : gray16 ? "nppiFilterMedian_16u_C1R_Ctx" : nullptr;
    case OpId::Convolve:
      if (!npp_convolves(rec)) return nullptr;
      return rgb8 ? "nppiFilterBorder_8u_C3R_Ctx" : gray16 ? "nppiFilterBorder_16u_C1R_Ctx" : nullptr;
    case OpId::Gaussian:
      return rgb8 ? "nppiFilterGaussAdvancedBorder_8u_C3R_Ctx" : gray16 ? "nppiFilterGaussAdvancedBorder_16u_C1R_Ctx"
                                                                        : nullptr;
    case OpId::Flip:
    case OpId::Flop:
      return rgb8 ? "nppiMirror_8u_C3R_Ctx" : gray16 ? "nppiMirror_16u_C1R_Ctx" : nullptr;
    case OpId::Rotate:
      if (rec.get<Rotate>().quarter_turns != 2) return nullptr;  // NPP turns by any angle, resampling
      return rgb8 ? "nppiMirror_8u_C3R_Ctx" : gray16 ? "nppiMirror_16u_C1R_Ctx" : nullptr;
    case OpId::Transpose:
      return rgb8 ? "nppiTranspose_8u_C3R_Ctx" : gray16 ? "nppiTranspose_16u_C1R_Ctx" : nullptr;
    case OpId::Grayscale:
      return rgb8 ? "nppiRGBToGray_8u_C3C1R_Ctx" : nullptr;
    case OpId::Crop:
      return rgb8 ? "nppiCopy_8u_C3R_Ctx" : gray16 ? "nppiCopy_16u_C1R_Ctx" : nullptr;
    case OpId::Resize:
      if (resize_interpolation(rec) < 0) return nullptr;
      return rgb8 ? "nppiResize_8u_C3R_Ctx" : gray16 ? "nppiResize_16u_C1R_Ctx" : nullptr;
    default:
      return nullptr;
  }
}

NppStatus NppPeers::run(const OpRecord& rec, const CudaStage& s) {
  if (!function(rec, s.in.channels, s.in.bytes)) return NPP_NOT_SUPPORTED_MODE_ERROR;
  const NppiSize size{s.in.width, s.in.height};
  const NppiPoint origin{0, 0};
  const int step = s.in.width * s.in.channels * s.in.bytes;
  const bool rgb8 = is_rgb8(s.in.channels, s.in.bytes);
  const auto* src8 = static_cast<const Npp8u*>(s.src);
  auto* dst8 = static_cast<Npp8u*>(s.dst);
  const auto* src16 = static_cast<const Npp16u*>(s.src);
  auto* dst16 = static_cast<Npp16u*>(s.dst);
  switch (rec.id) {
    case OpId::Invert:
      return rgb8 ? nppiNot_8u_C3R_Ctx(src8, step, dst8, step, size, ctx_)
                  : nppiXorC_16u_C1R_Ctx(src16, step, 0xFFFF, dst16, step, size, ctx_);
    case OpId::Levels: {
      const Npp8u* tables[3] = {table8_, table8_, table8_};
      return rgb8 ? nppiLUTPalette_8u_C3R_Ctx(src8, step, dst8, step, size, tables, 8, ctx_)
                  : nppiLUTPalette_16u_C1R_Ctx(src16, step, dst16, step, size, table16_, 16, ctx_);
    }
    case OpId::Sharpen: {
      const NppiSize k{3, 3};
      const NppiPoint anchor{1, 1};
      return rgb8 ? nppiFilterBorder_8u_C3R_Ctx(src8, step, size, origin, dst8, step, size, sharpen_kernel_, k,
                                                anchor, 1, NPP_BORDER_REPLICATE, ctx_)
                  : nppiFilterBorder_16u_C1R_Ctx(src16, step, size, origin, dst16, step, size, sharpen_kernel_, k,
                                                 anchor, 1, NPP_BORDER_REPLICATE, ctx_);
    }
    case OpId::Convolve: {
      const SizeSpec& k = rec.get<Convolve>().size;
      const NppiSize mask{k.width, k.height};
      const NppiPoint anchor{k.width / 2, k.height / 2};
      return rgb8 ? nppiFilterBorder_8u_C3R_Ctx(src8, step, size, origin, dst8, step, size, convolve_kernel_, mask,
                                                anchor, convolve_divisor_, NPP_BORDER_REPLICATE, ctx_)
                  : nppiFilterBorder_16u_C1R_Ctx(src16, step, size, origin, dst16, step, size, convolve_kernel_,
                                                 mask, anchor, convolve_divisor_, NPP_BORDER_REPLICATE, ctx_);
    }
    case OpId::Blur: {
      const int r = rec.get<Blur>().radius;
      const NppiSize mask{2 * r + 1, 2 * r + 1};
      const NppiPoint anchor{r, r};
      return rgb8 ? nppiFilterBoxBorder_8u_C3R_Ctx(src8, step, size, origin, dst8, step, size, mask, anchor,
                                                   NPP_BORDER_REPLICATE, ctx_)
                  : nppiFilterBoxBorder_16u_C1R_Ctx(src16, step, size, origin, dst16, step, size, mask, anchor,
                                                    NPP_BORDER_REPLICATE, ctx_);
    }
    case OpId::Median: {
      // The region margin() pixels in from every edge, where the mask stays inside the image.
      const int r = rec.get<Median>().radius;
      const NppiSize region{s.in.width - 2 * r, s.in.height - 2 * r}, mask{2 * r + 1, 2 * r + 1};
      const NppiPoint anchor{r, r};
      if (region.width < 1 || region.height < 1) return NPP_SIZE_ERROR;
      const std::size_t at = (std::size_t(r) * s.in.width + r) * s.in.channels;
      Npp32u bytes = 0;
      const NppStatus sized = rgb8 ? nppiFilterMedianGetBufferSize_8u_C3R_Ctx(region, mask, &bytes, ctx_)
                                   : nppiFilterMedianGetBufferSize_16u_C1R_Ctx(region, mask, &bytes, ctx_);
      if (sized != NPP_NO_ERROR) return sized;
      Npp8u* buffer = scratch(bytes);
      return rgb8 ? nppiFilterMedian_8u_C3R_Ctx(src8 + at, step, dst8 + at, step, region, mask, anchor, buffer, ctx_)
                  : nppiFilterMedian_16u_C1R_Ctx(src16 + at, step, dst16 + at, step, region, mask, anchor, buffer,
                                                 ctx_);
    }
    case OpId::Gaussian: {
      const int taps = 2 * s.host_data[0] + 1;
      return rgb8 ? nppiFilterGaussAdvancedBorder_8u_C3R_Ctx(src8, step, size, origin, dst8, step, size, taps,
                                                             gauss_taps_, NPP_BORDER_REPLICATE, ctx_)
                  : nppiFilterGaussAdvancedBorder_16u_C1R_Ctx(src16, step, size, origin, dst16, step, size, taps,
                                                              gauss_taps_, NPP_BORDER_REPLICATE, ctx_);
    }
    case OpId::Flip:
    case OpId::Flop:
    case OpId::Rotate: {
      const NppiAxis axis = rec.id == OpId::Flip ? NPP_HORIZONTAL_AXIS
                            : rec.id == OpId::Flop ? NPP_VERTICAL_AXIS
                                                   : NPP_BOTH_AXIS;
      return rgb8 ? nppiMirror_8u_C3R_Ctx(src8, step, dst8, step, size, axis, ctx_)
                  : nppiMirror_16u_C1R_Ctx(src16, step, dst16, step, size, axis, ctx_);
    }
    case OpId::Transpose: {
      const int out_step = s.out.width * s.out.channels * s.out.bytes;
      return rgb8 ? nppiTranspose_8u_C3R_Ctx(src8, step, dst8, out_step, size, ctx_)
                  : nppiTranspose_16u_C1R_Ctx(src16, step, dst16, out_step, size, ctx_);
    }
    case OpId::Grayscale:
      return nppiRGBToGray_8u_C3C1R_Ctx(src8, step, dst8, s.out.width, size, ctx_);
    case OpId::Crop: {
      const Geometry& g = rec.get<Crop>().region;  // planned: inside the image
      const NppiSize region{g.width, g.height};
      const std::size_t at = (std::size_t(g.y) * s.in.width + g.x) * s.in.channels;
      const int out_step = g.width * s.in.channels * s.in.bytes;
      return rgb8 ? nppiCopy_8u_C3R_Ctx(src8 + at, step, dst8, out_step, region, ctx_)
                  : nppiCopy_16u_C1R_Ctx(src16 + at, step, dst16, out_step, region, ctx_);
    }
    case OpId::Resize: {
      const NppiSize out{s.out.width, s.out.height};
      const NppiRect in_rect{0, 0, s.in.width, s.in.height}, out_rect{0, 0, s.out.width, s.out.height};
      const int out_step = s.out.width * s.out.channels * s.out.bytes;
      const int mode = resize_interpolation(rec);
      return rgb8 ? nppiResize_8u_C3R_Ctx(src8, step, size, in_rect, dst8, out_step, out, out_rect, mode, ctx_)
                  : nppiResize_16u_C1R_Ctx(src16, step, size, in_rect, dst16, out_step, out, out_rect, mode, ctx_);
    }
    default:
      break;
  }
  return NPP_NOT_SUPPORTED_MODE_ERROR;
}

}  // namespace gpuimg
