// Every function of kernels/expr_libm.hpp, and the four of expr_math.hpp
// that call the C library, gives the host's bits on the device, over the
// arguments the host's accuracy test checks (support/libm_cases.hpp): the
// promise that lets --map run on either backend.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <vector>

#include "gpu.hpp"
#include "libm_cases.hpp"

namespace gpuimg::test {
namespace {

__global__ void libm_kernel(LibmFn f, const double* a, const double* b, int n, double* out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = libm_eval(f, a[i], b[i]);
}

std::vector<double> on_device(LibmFn f, const std::vector<double>& a, const std::vector<double>& b) {
  const int n = static_cast<int>(a.size());
  const size_t bytes = a.size() * sizeof(double);
  double *d_a = nullptr, *d_b = nullptr, *d_out = nullptr;
  std::vector<double> out(a.size());
  EXPECT_EQ(cudaMalloc(&d_a, bytes), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&d_b, bytes), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&d_out, bytes), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  libm_kernel<<<(n + 255) / 256, 256>>>(f, d_a, d_b, n, d_out);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_out);
  return out;
}

class GpuExprLibm : public ::testing::TestWithParam<LibmFn> {};

// Bit for bit, the sign of zero included; a NaN matches any NaN, as the
// payloads the two sides make differ and the expressions cannot tell.
TEST_P(GpuExprLibm, DeviceGivesTheHostsBits) {
  GPUIMG_REQUIRE_GPU();
  const LibmFn f = GetParam();
  std::vector<double> a, b;
  for (const LibmArgs& in : libm_inputs(f)) {
    a.push_back(in[0]);
    b.push_back(in[1]);
  }
  const std::vector<double> device = on_device(f, a, b);
  int differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double host = libm_eval(f, a[i], b[i]);
    if ((std::isnan(host) && std::isnan(device[i])) || std::memcmp(&host, &device[i], sizeof(double)) == 0) continue;
    if (++differ <= 5)
      ADD_FAILURE() << std::setprecision(17) << libm_name(f) << "(" << a[i] << ", " << b[i] << "): host " << host
                    << ", device " << device[i];
  }
  EXPECT_EQ(differ, 0) << "of " << a.size() << " arguments";
}

INSTANTIATE_TEST_SUITE_P(, GpuExprLibm, ::testing::ValuesIn(kLibmFns),
                         [](const auto& info) { return std::string(libm_name(info.param)); });

}  // namespace
}  // namespace gpuimg::test
