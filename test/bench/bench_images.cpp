// Writes the photo-like images scripts/bench_batch.sh measures with, the
// same on every machine: colour waves from the size of the frame down to a
// few pixels, weaker as they get finer (as in photos), a few hard-edged
// discs, and a little per-pixel noise (which keeps them from compressing
// like flat graphics), from a seed, through gpuimg's own encoders.
// Usage: gpuimg_bench_images DIR PREFIX COUNT WIDTH HEIGHT EXT [JPEG_QUALITY]
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "codec.hpp"
#include "error.hpp"

namespace {

using gpuimg::Depth;
using gpuimg::Image;

// splitmix64: fully specified, unlike the standard distributions, so every
// compiler draws the same images.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double unit(std::uint64_t& state) { return static_cast<double>(mix(state++) >> 11) / 9007199254740992.0; }

std::uint64_t seed_of(const std::string& text) {
  std::uint64_t h = 0;
  for (const unsigned char c : text) h = mix(h ^ c);
  return h;
}

constexpr int kWaves = 10;
constexpr int kDiscs = 8;
constexpr double kPi = 3.14159265358979323846;

// sin(ax + by + p) = sin(ax) cos(by + p) + cos(ax) sin(by + p): each wave
// is tabulated once per column and once per row, two products per sample.
Image draw(int width, int height, std::uint64_t seed) {
  Image img(width, height, 3, Depth::U8);
  std::uint64_t state = seed * 1000003u;
  std::vector<double> sx(kWaves * width), cx(kWaves * width), sy(kWaves * height), cy(kWaves * height);
  double amp[kWaves][3], base[3];
  for (double& b : base) b = 60 + 130 * unit(state);
  for (int k = 0; k < kWaves; ++k) {
    // Periods from the frame's size down to about 6 pixels, log-spaced.
    const double period = std::max(width, height) * std::pow(6.0 / std::max(width, height), (k + unit(state)) / kWaves);
    const double angle = 2 * kPi * unit(state), phase = 2 * kPi * unit(state);
    const double a = 2 * kPi / period * std::cos(angle), b = 2 * kPi / period * std::sin(angle);
    for (int x = 0; x < width; ++x) {
      sx[k * width + x] = std::sin(a * x);
      cx[k * width + x] = std::cos(a * x);
    }
    for (int y = 0; y < height; ++y) {
      sy[k * height + y] = std::sin(b * y + phase);
      cy[k * height + y] = std::cos(b * y + phase);
    }
    const double strength = 70 * std::pow(period / std::max(width, height), 0.35);
    for (double& c : amp[k]) c = (unit(state) - 0.5) * strength;
  }
  struct Disc {
    double x, y, r2, shift[3];
  } discs[kDiscs];
  for (Disc& d : discs) {
    d.x = width * unit(state);
    d.y = height * unit(state);
    const double r = std::min(width, height) * (0.03 + 0.2 * unit(state));
    d.r2 = r * r;
    for (double& c : d.shift) c = (unit(state) - 0.5) * 120;
  }
  std::uint8_t* out = img.data.data();
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double wave[kWaves];
      for (int k = 0; k < kWaves; ++k)
        wave[k] = sx[k * width + x] * cy[k * height + y] + cx[k * width + x] * sy[k * height + y];
      const std::uint64_t noise = mix(seed ^ (static_cast<std::uint64_t>(y) << 32 | static_cast<std::uint32_t>(x)));
      double v[3];
      for (int c = 0; c < 3; ++c) v[c] = base[c] + static_cast<int>((noise >> (8 * c)) % 9) - 4;
      for (const Disc& d : discs)
        if ((x - d.x) * (x - d.x) + (y - d.y) * (y - d.y) < d.r2)
          for (int c = 0; c < 3; ++c) v[c] += d.shift[c];
      for (int c = 0; c < 3; ++c) {
        for (int k = 0; k < kWaves; ++k) v[c] += amp[k][c] * wave[k];
        *out++ = static_cast<std::uint8_t>(std::clamp(std::lround(v[c]), 0L, 255L));
      }
    }
  return img;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 7 && argc != 8) {
    std::fprintf(stderr, "usage: gpuimg_bench_images DIR PREFIX COUNT WIDTH HEIGHT EXT [JPEG_QUALITY]\n");
    return 2;
  }
  const std::string dir = argv[1], prefix = argv[2], ext = argv[6];
  const int count = std::atoi(argv[3]), width = std::atoi(argv[4]), height = std::atoi(argv[5]);
  gpuimg::WriteOptions write;
  if (argc == 8) write.jpeg_quality = std::atoi(argv[7]);
  std::atomic<int> next{0}, failed{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t)
    threads.emplace_back([&] {
      for (int i; (i = next++) < count;) {
        char name[64];
        std::snprintf(name, sizeof name, "%s%04d.%s", prefix.c_str(), i, ext.c_str());
        try {
          gpuimg::write_image(dir + "/" + name, draw(width, height, seed_of(prefix) + i), write);
        } catch (const gpuimg::Error& e) {
          std::fprintf(stderr, "gpuimg_bench_images: %s\n", e.what());
          ++failed;
        }
      }
    });
  for (std::thread& t : threads) t.join();
  return failed ? 1 : 0;
}
