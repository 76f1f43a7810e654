// The shared rounding, saturation and border helpers give the same answers
// inside a kernel as on the host.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gpu.hpp"
#include "pixel.hpp"

namespace gpuimg::test {
namespace {

const std::vector<double> kValues = {-1e9, -0.5, -0.0, 0.0,         0.49999999999999994, 0.5,   1.5,    2.5,
                                     254.5, 254.49999999999997, 255, 255.5,  65534.5,             65535, 1e300, 7.25};

// Per value: the two saturating roundings, the border clamp, and one
// multiply-then-add through the explicitly rounded helpers.
struct Results {
  int u8, u16, index;
  double mul_add;
};

GPUIMG_HD Results helpers(double v) {
  const int index = static_cast<int>(v > 1e6 ? 1e6 : v < -1e6 ? -1e6 : v);
  return {round_saturate<std::uint8_t>(v), round_saturate<std::uint16_t>(v), clamp_index(index, 300),
          add_rn(mul_rn(v, 0.1), 0.3)};
}

__global__ void helpers_kernel(const double* in, int n, Results* out) {
  for (int i = 0; i < n; ++i) out[i] = helpers(in[i]);
}

TEST(PixelHelpers, DeviceMatchesHost) {
  GPUIMG_REQUIRE_GPU();
  const int n = static_cast<int>(kValues.size());
  double* d_in = nullptr;
  Results* d_out = nullptr;
  ASSERT_EQ(cudaMalloc(&d_in, n * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_out, n * sizeof(Results)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d_in, kValues.data(), n * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
  helpers_kernel<<<1, 1>>>(d_in, n, d_out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<Results> device(n);
  ASSERT_EQ(cudaMemcpy(device.data(), d_out, n * sizeof(Results), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(d_in);
  cudaFree(d_out);
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(kValues[i]);
    const Results host = helpers(kValues[i]);
    EXPECT_EQ(device[i].u8, host.u8);
    EXPECT_EQ(device[i].u16, host.u16);
    EXPECT_EQ(device[i].index, host.index);
    EXPECT_EQ(std::memcmp(&device[i].mul_add, &host.mul_add, sizeof(double)), 0)
        << device[i].mul_add << " vs " << host.mul_add;  // bit-identical, not merely close
  }
}

// The device's rounding is built from directed-rounding adds instead of
// floor(): check it against the host on both sides of every half-integer a
// sample can round to, and exact_double on ints of every magnitude.
__global__ void rounding_kernel(const double* v, const int* ints, int n, int* u8, int* u16, double* exact) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    u8[i] = round_saturate<std::uint8_t>(v[i]);
    u16[i] = round_saturate<std::uint16_t>(v[i]);
    exact[i] = exact_double(ints[i]);
  }
}

TEST(PixelHelpers, DeviceRoundingMatchesHostAtEveryHalf) {
  GPUIMG_REQUIRE_GPU();
  std::vector<double> v;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> frac(0.0, 1.0);
  for (int k = -2; k <= 65537; ++k) {
    const double half = k + 0.5;
    v.insert(v.end(), {half, std::nextafter(half, -1e9), std::nextafter(half, 1e9), double(k), k + frac(rng)});
  }
  std::vector<int> ints(v.size());
  std::uniform_int_distribution<int> any(INT_MIN, INT_MAX);
  for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = i % 3 == 0 ? any(rng) : static_cast<int>(i) - 200000;
  ints[0] = INT_MIN;
  ints[1] = INT_MAX;
  const int n = static_cast<int>(v.size());
  double *d_v = nullptr, *d_exact = nullptr;
  int *d_ints = nullptr, *d_u8 = nullptr, *d_u16 = nullptr;
  ASSERT_EQ(cudaMalloc(&d_v, n * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_exact, n * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_ints, n * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_u8, n * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_u16, n * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d_v, v.data(), n * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d_ints, ints.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  rounding_kernel<<<256, 256>>>(d_v, d_ints, n, d_u8, d_u16, d_exact);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<int> u8(n), u16(n);
  std::vector<double> exact(n);
  ASSERT_EQ(cudaMemcpy(u8.data(), d_u8, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(u16.data(), d_u16, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(exact.data(), d_exact, n * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
  for (void* p : {static_cast<void*>(d_v), static_cast<void*>(d_exact), static_cast<void*>(d_ints),
                  static_cast<void*>(d_u8), static_cast<void*>(d_u16)})
    cudaFree(p);
  int mismatches = 0;
  for (int i = 0; i < n && mismatches < 10; ++i) {
    const bool same = u8[i] == round_saturate<std::uint8_t>(v[i]) && u16[i] == round_saturate<std::uint16_t>(v[i]) &&
                      exact[i] == static_cast<double>(ints[i]);
    if (!same) {
      ++mismatches;
      ADD_FAILURE() << "v=" << v[i] << " int=" << ints[i] << ": device " << u8[i] << "/" << u16[i] << "/" << exact[i];
    }
  }
}

// The host side of the same helpers, pinned to the values the README states.
TEST(PixelHelpers, HostValues) {
  EXPECT_EQ(round_saturate<std::uint8_t>(0.49999999999999994), 0);
  EXPECT_EQ(round_saturate<std::uint8_t>(0.5), 1);
  EXPECT_EQ(round_saturate<std::uint8_t>(2.5), 3);
  EXPECT_EQ(round_saturate<std::uint8_t>(254.5), 255);
  EXPECT_EQ(round_saturate<std::uint8_t>(300), 255);
  EXPECT_EQ(round_saturate<std::uint8_t>(-3), 0);
  EXPECT_EQ(round_saturate<std::uint16_t>(65534.5), 65535);
  EXPECT_EQ(clamp_index(-5, 10), 0);
  EXPECT_EQ(clamp_index(12, 10), 9);
  EXPECT_EQ(rounded_mean<unsigned>(7, 2), 4u);
}

}  // namespace
}  // namespace gpuimg::test
