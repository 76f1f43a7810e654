// psd_codec.cpp against PSDs built byte by byte: raw and PackBits planes,
// 8 and 16 bits, gray and RGB, with and without alpha, and the white matte
// against a reference computed here in double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "codec.hpp"
#include "crafted_files.hpp"
#include "error.hpp"
#include "temp_dir.hpp"

namespace gpuimg {
namespace {

using namespace test;

Image read_psd(const TempDir& dir, const Bytes& file) {
  save(dir.file("a.psd"), file);
  return read_image(dir.file("a.psd"));
}

std::string psd_error(const TempDir& dir, const Bytes& file) {
  save(dir.file("a.psd"), file);
  try {
    read_image(dir.file("a.psd"));
  } catch (const InputError& e) {
    return std::string(e.what()).substr(dir.file("a.psd").size() + 2);
  }
  return "(no error)";
}

TEST(PsdInput, RawPlanesAtEightAndSixteenBits) {
  TempDir dir;
  Image img = read_psd(dir, psd_file(3, 1, 3, 8, {1, 2, 3, 4, 5, 6, 7, 8, 9}));  // R plane, G plane, B plane
  ASSERT_EQ(img.channels, 3);
  ASSERT_EQ(img.depth, Depth::U8);
  EXPECT_EQ(img.data, (Bytes{1, 4, 7, 2, 5, 8, 3, 6, 9}));

  img = read_psd(dir, psd_file(1, 2, 3, 16, {1000, 2000, 3000, 40000, 50000, 60000}));  // 1x2 RGB
  ASSERT_EQ(img.channels, 3);
  ASSERT_EQ(img.depth, Depth::U16);
  const std::uint16_t* v = img.samples<std::uint16_t>();
  EXPECT_EQ(std::vector<std::uint16_t>(v, v + 6), (std::vector<std::uint16_t>{1000, 3000, 50000, 2000, 40000, 60000}));
}

TEST(PsdInput, GrayAndGrayAlpha) {
  TempDir dir;
  EXPECT_EQ(read_psd(dir, psd_file(2, 1, 1, 8, {10, 20}, 1)).data, (Bytes{10, 20}));
  const Image img = read_psd(dir, psd_file(2, 1, 2, 8, {10, 20, 255, 0}, 1));
  ASSERT_EQ(img.channels, 2);
  EXPECT_EQ(img.data, (Bytes{10, 255, 20, 0}));
  // Planes past alpha (spot colours) are skipped.
  EXPECT_EQ(read_psd(dir, psd_file(2, 1, 3, 8, {10, 20, 255, 255, 7, 7}, 1)).data, (Bytes{10, 255, 20, 255}));
}

// Each PackBits packet kind: a literal run, a repeat, the no-op 128.
TEST(PsdInput, PackBitsRows) {
  TempDir dir;
  const std::vector<Bytes> rows = {
      {2, 1, 2, 3},        // R row 0: literal 1 2 3
      {254, 4},            // R row 1: 4 three times
      {128, 0, 5, 255, 6},  // G row 0: no-op, literal 5, 6 twice
      {2, 7, 8, 9},        // G row 1
      {254, 0},            // B rows
      {0, 1, 254, 2}};     // B row 1: literal 1, then 2 twice: one past the width
  const std::vector<Bytes> good(rows.begin(), rows.end() - 1);
  std::vector<Bytes> fixed = good;
  fixed.push_back({0, 1, 255, 2});
  const Image img = read_psd(dir, psd_packbits_file(3, 2, 3, fixed));
  EXPECT_EQ(img.data, (Bytes{1, 5, 0, 2, 6, 0, 3, 6, 0, 4, 7, 1, 4, 8, 2, 4, 9, 2}));
  std::vector<Bytes> over = good;
  over.push_back(rows.back());
  EXPECT_EQ(psd_error(dir, psd_packbits_file(3, 2, 3, over)), "corrupt PSD (a compressed row runs past its width)");
  std::vector<Bytes> short_row = good;
  short_row.push_back({0, 1});
  EXPECT_EQ(psd_error(dir, psd_packbits_file(3, 2, 3, short_row)), "corrupt PSD (a compressed row ends early)");
}

// c' = M - (M - c) * M / a rounded half up for 0 < a < M, clamped at 0;
// a = 0 and a = M leave the colour as stored.
template <class T>
T unmatted(T c, T a, double m) {
  if (a == 0 || a == m) return c;
  const double v = std::floor(m - (m - c) * m / a + 0.5);
  return static_cast<T>(v < 0 ? 0 : v);
}

TEST(PsdInput, WhiteMatteRemovedExactly) {
  TempDir dir;
  std::vector<std::uint16_t> colours, alphas;
  for (int a : {0, 1, 2, 127, 128, 200, 254, 255})
    for (int c : {0, 1, 100, 128, 200, 254, 255}) {
      colours.push_back(static_cast<std::uint16_t>(c));
      alphas.push_back(static_cast<std::uint16_t>(a));
    }
  const int w = static_cast<int>(colours.size());
  std::vector<std::uint16_t> planar = colours;  // R = G = B
  planar.insert(planar.end(), colours.begin(), colours.end());
  planar.insert(planar.end(), colours.begin(), colours.end());
  planar.insert(planar.end(), alphas.begin(), alphas.end());
  Image img = read_psd(dir, psd_file(w, 1, 4, 8, planar));
  for (int x = 0; x < w; ++x) {
    const auto c = static_cast<std::uint8_t>(colours[x]), a = static_cast<std::uint8_t>(alphas[x]);
    EXPECT_EQ(img.data[4 * x], unmatted<std::uint8_t>(c, a, 255)) << "c " << int(c) << " a " << int(a);
    EXPECT_EQ(img.data[4 * x + 3], a);
  }
  for (std::uint16_t& v : planar) v = static_cast<std::uint16_t>(v * 257 + (v % 3));  // spread over 16 bits
  img = read_psd(dir, psd_file(w, 1, 4, 16, planar));
  const std::uint16_t* s = img.samples<std::uint16_t>();
  for (int x = 0; x < w; ++x) {
    EXPECT_EQ(s[4 * x + 1], unmatted<std::uint16_t>(planar[w + x], planar[3 * w + x], 65535)) << x;
  }
}

TEST(PsdInput, UnsupportedKindsAreNamed) {
  TempDir dir;
  EXPECT_EQ(psd_error(dir, psd_file(1, 1, 4, 8, {1, 2, 3, 4}, 4)), "PSD in colour mode 4 is not supported (only grayscale and RGB)");
  EXPECT_EQ(psd_error(dir, psd_file(1, 1, 3, 32, {}, 3)), "PSD with 32-bit samples is not supported (only 8 and 16)");
  EXPECT_EQ(psd_error(dir, psd_file(1, 1, 2, 8, {1, 2}, 3)), "corrupt PSD (2 channels in colour mode 3)");
  Bytes zip = psd_header(1, 1, 3, 8);
  put_be(zip, 2, 2);
  zip.resize(zip.size() + 16, 0);
  EXPECT_EQ(psd_error(dir, zip), "PSD with ZIP compression is not supported (only raw and PackBits)");
}

}  // namespace
}  // namespace gpuimg
