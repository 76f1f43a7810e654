// Every function of kernels/expr_libm.hpp, and the four of expr_math.hpp
// that call the C library, gives the host's bits on the device, over the
// arguments the host's accuracy test checks (support/libm_cases.hpp), and
// so do the sample values and stores the device computes its own way: the
// promise that lets --map run on either backend.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
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

// The sample values and the stores of --map's kernel, which the device
// computes its own way (expr_math.hpp): every 8- and 16-bit sample's value,
// and a result's sample at both depths for results around and far past
// [0, 1], infinities, NaN and results whose m r + 0.5 passes 2^31 and 2^52.
__global__ void unit_store_kernel(const double* r, int n, double* units, int* stores) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 65536 || i < n; i += gridDim.x * blockDim.x) {
    if (i < 65536) units[i] = xm::unit16(i);
    if (i < 256) units[65536 + i] = xm::unit8(i);
    if (i < n) stores[2 * i] = xm::store(r[i], 255.0), stores[2 * i + 1] = xm::store(r[i], 65535.0);
  }
}

TEST(GpuExprMath, UnitValuesAndStoresAreTheHosts) {
  GPUIMG_REQUIRE_GPU();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> r = {std::nan(""), -std::nan(""), inf, -inf, 0.0, -0.0, 1e-300, -1e-300, 1.0, -1.0,
                           std::nextafter(1.0, 2.0), std::nextafter(1.0, 0.0), 0.5, 1e300, -1e300,
                           1e7, -1e7, 8.5e6, 3e9 / 255, 2.0e13, 4.6e15, -4.6e15, 1.8e16, 1e17};
  // m r + 0.5 around 2^31, 2^32 and 2^52 at either depth, and their negatives.
  for (double m : {255.0, 65535.0})
    for (double u : {2147483648.0, 4294967296.0, 4503599627370496.0})
      for (double at : {(u - 1.5) / m, (u - 0.5) / m, u / m, (u + 0.5) / m})
        for (double v : {at, std::nextafter(at, 0.0), std::nextafter(at, 1e300)}) r.push_back(v), r.push_back(-v);
  for (int k = 0; k <= 65535; ++k) {  // each rounding edge: (k - 0.5) / m and its neighbours
    for (double m : {255.0, 65535.0}) {
      const double edge = (k - 0.5) / m;
      if (k > 255 && m == 255.0) continue;
      r.push_back(edge), r.push_back(std::nextafter(edge, 2.0)), r.push_back(std::nextafter(edge, -2.0));
    }
  }
  const int n = static_cast<int>(r.size());
  double *d_r = nullptr, *d_units = nullptr;
  int* d_stores = nullptr;
  ASSERT_EQ(cudaMalloc(&d_r, n * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_units, (65536 + 256) * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_stores, 2 * n * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d_r, r.data(), n * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
  unit_store_kernel<<<(std::max(n, 65536) + 255) / 256, 256>>>(d_r, n, d_units, d_stores);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<double> units(65536 + 256);
  std::vector<int> stores(2 * n);
  ASSERT_EQ(cudaMemcpy(units.data(), d_units, units.size() * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(stores.data(), d_stores, stores.size() * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(d_r);
  cudaFree(d_units);
  cudaFree(d_stores);
  for (int s = 0; s <= 65535; ++s) ASSERT_EQ(units[s], s / 65535.0) << s;
  for (int s = 0; s <= 255; ++s) ASSERT_EQ(units[65536 + s], s / 255.0) << s;
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(stores[2 * i], xm::store(r[i], 255.0)) << std::setprecision(17) << r[i];
    ASSERT_EQ(stores[2 * i + 1], xm::store(r[i], 65535.0)) << std::setprecision(17) << r[i];
  }
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
