// The CUDA backend against the CPU backend: identical bytes for every op of
// the registry-generated matrix, for pipelines, and at sizes that exercise
// the grid limits. Skips without a usable GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "convolve_kernels.hpp"
#include "convolve_mma.hpp"
#include "error.hpp"
#include "gpu.hpp"
#include "image_compare.hpp"
#include "op_cases.hpp"
#include "plan.hpp"
#include "resample_plan.hpp"
#include "table_chains.hpp"

namespace gpuimg::test {
namespace {

void expect_backends_agree(const Image& in, const Pipeline& pipeline) {
  Image cpu = in, gpu = in;
  run_cpu(cpu, pipeline);
  run_cuda(gpu, pipeline);
  EXPECT_TRUE(same_samples(cpu, gpu)) << "CUDA backend vs CPU backend";
}

// Op `op` at every radius from r0 to r1, both depths, 1 to 4 channels and
// each size, a new seed for each image from `seed` on.
void expect_every_radius_agrees(const char* op, int r0, int r1, const std::vector<std::pair<int, int>>& sizes,
                                std::uint32_t seed) {
  for (int r = r0; r <= r1; ++r)
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : sizes) {
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          SCOPED_TRACE("R=" + std::to_string(r) + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                       std::to_string(channels));
          expect_backends_agree(random_image(w, h, channels, d, image_seed), {parse_stage(op, {std::to_string(r)})});
        }
}

const bool registered = register_op_matrix(
    "GpuMatchesCpu", __FILE__, __LINE__, [] { GPUIMG_REQUIRE_GPU(); },
    [](const Image& in, const OpRecord& rec) { expect_backends_agree(in, {rec}); });

TEST(GpuBackend, LongPipelineWithRepeats) {
  GPUIMG_REQUIRE_GPU();
  const Pipeline p = {parse_stage("blur", {"3"}),     parse_stage("invert", {}),        parse_stage("sharpen", {"0.8"}),
                      parse_stage("blur", {"1"}),     parse_stage("sharpen", {"0.5"}), parse_stage("invert", {}),
                      parse_stage("blur", {"200"}),   parse_stage("sharpen", {"1000"})};
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels) expect_backends_agree(random_image(643, 481, channels, d, 7), p);
}

TEST(GpuBackend, FullHdEveryRadiusClass) {
  GPUIMG_REQUIRE_GPU();
  for (const char* r : {"1", "8", "9", "64", "127", "128", "129", "256", "2048", "4096"})
    for (Depth d : {Depth::U8, Depth::U16})
      expect_backends_agree(random_image(1920, 1080, 3, d, 11), {parse_stage("blur", {r})});
}

// Each blur radius up to the fused pass's limit is its own kernel, and one
// past it takes the two-pass path: every one, every channel count and
// depth, at widths around the warps' 256- and 128-pixel strips (which
// overlap by 2R) and heights spanning several row bands.
TEST(GpuBackend, BlurEveryFusedRadiusAtStripEdges) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {5, 300}, {255, 9}, {513, 70}, {1000, 33}};
  expect_every_radius_agrees("blur", 1, Blur::kMaxFusedRadius + 1, sizes, 40);
}

// 8-bit images whose rows are whole 16-byte vectors take the vector blur
// (box_blur_vectors.cu) up to the fused radii: row lengths around its
// strips of 30 and 28 output vectors, one-vector rows whose both edges fall
// in one lane, and heights around its bands.
TEST(GpuBackend, BlurVectorRows) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 90;
  for (int r = 1; r <= Blur::kMaxFusedRadius; ++r)
    for (int channels = 1; channels <= 4; ++channels)
      for (int vectors : {1, 2, 3, 27, 29, 30, 31, 33, 57, 60, 61, 63, 250, 252})
        for (int height : {1, 3, 40}) {
          if (vectors * 16 % channels != 0) continue;
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          const int width = vectors * 16 / channels;
          SCOPED_TRACE("R=" + std::to_string(r) + " " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                       std::to_string(channels));
          expect_backends_agree(random_image(width, height, channels, Depth::U8, image_seed),
                                {parse_stage("blur", {std::to_string(r)})});
        }
  for (int r : {1, 8})
    expect_backends_agree(random_image(480, 700, 2, Depth::U8, seed++), {parse_stage("blur", {std::to_string(r)})});
}

// 8-bit images take a one-pass blur past the fused radii: the strip blur
// up to Blur::kMaxStripRadius where rows are whole words; else, where the
// two-pass sums would not fit in L2 (on the H100, 50 MB), the wide blur up
// to Blur::kMaxWideRadius; two passes past them. blur_wide_device_test.cu
// tests both kernels at awkward sizes.
TEST(GpuBackend, BlurOnImagesPastL2) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 12;
  for (int r : {9, Blur::kMaxWideRadius, Blur::kMaxWideRadius + 1, Blur::kMaxStripRadius, Blur::kMaxStripRadius + 1})
    for (auto [width, channels] : {std::pair{12288, 1}, std::pair{4096, 3}, std::pair{4097, 3}})
      expect_backends_agree(random_image(width, 2200, channels, Depth::U8, seed++),
                            {parse_stage("blur", {std::to_string(r)})});
}

// More tile rows than a grid holds (65535 x 8): the dispatch kernel walks
// them; and more row bands than a grid holds (65535 x 8), which the word
// rows kernel lengthens.
TEST(GpuBackend, TallImageBeyondTheGridLimit) {
  GPUIMG_REQUIRE_GPU();
  const Image in = random_image(3, 600000, 2, Depth::U16, 5);
  expect_backends_agree(in, {parse_stage("sharpen", {"1"}), parse_stage("blur", {"2"}), parse_stage("invert", {})});
  expect_backends_agree(random_image(4, 600000, 1, Depth::U8, 6), {parse_stage("sharpen", {"1"})});
}

// The shapes of the word rows kernels' tests: rows of `words` whole 32-bit
// words of pixels of at most a word, for every depth in `depths` and every
// channel count, each height; in that order, depth outermost.
struct WordRowsShape {
  int width, height, channels;
  Depth depth;
  int words;
};
std::vector<WordRowsShape> word_rows_shapes(std::initializer_list<Depth> depths, std::initializer_list<int> words,
                                            std::initializer_list<int> heights) {
  std::vector<WordRowsShape> shapes;
  for (Depth d : depths)
    for (int channels = 1; channels <= 4; ++channels) {
      const int pixel_bytes = channels * (d == Depth::U8 ? 1 : 2);
      if (pixel_bytes > 4) continue;
      for (int w : words)
        for (int height : heights)
          if (w * 4 % pixel_bytes == 0) shapes.push_back({w * 4 / pixel_bytes, height, channels, d, w});
    }
  return shapes;
}

// 8-bit images whose rows are whole words run through the word rows kernel
// (stencil_words.cu), by arithmetic at strengths of the form a / 2^s and
// through the word table at others: row lengths around a warp's 32 words
// and a block's 256, with the image's edges inside and at the ends of warps;
// heights around its row bands of 8 to 64.
TEST(GpuBackend, SharpenWordRows) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 70;
  for (const char* f : {"1", "2.5", "0.7"})
    for (const WordRowsShape& w :
         word_rows_shapes({Depth::U8}, {1, 3, 31, 32, 33, 96, 255, 256, 257, 768, 771}, {1, 2, 9, 70, 300})) {
      const std::uint32_t image_seed = seed++;
      if (!sweep_takes(image_seed)) continue;
      const Image in = random_image(w.width, w.height, w.channels, w.depth, image_seed);
      SCOPED_TRACE(std::string("F=") + f + " " + shape(in));
      expect_backends_agree(in, {parse_stage("sharpen", {f})});
    }
}

// The median's selection networks (median_networks.cu) tile 64x16 pixels,
// a thread two pixels of two rows: widths and heights around the tiles and
// the pixel pairs, every network radius, channel count and depth.
TEST(GpuBackend, MedianNetworksAtTileEdges) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {2, 3}, {3, 2}, {63, 15}, {64, 16}, {65, 17},
                                                  {129, 33}, {200, 5}, {7, 70}};
  expect_every_radius_agrees("median", 1, Median::kMaxGpuNetworkRadius, sizes, 300);
}

// R = 1 on rows of whole words, pixels of at most a word (median_words.cu,
// the word rows skeleton): row lengths around a warp's 32 words and a
// block's 256, with the image's edges inside and at the ends of warps;
// heights around the row bands and batches of 8. Rows not of whole words
// and larger pixels take the networks above.
TEST(GpuBackend, MedianWordRows) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 90;
  for (const WordRowsShape& w :
       word_rows_shapes({Depth::U8, Depth::U16}, {1, 3, 31, 32, 33, 255, 256, 257, 771}, {1, 2, 9, 70, 300})) {
    const std::uint32_t image_seed = seed++;
    if (!sweep_takes(image_seed)) continue;
    const Image in = random_image(w.width, w.height, w.channels, w.depth, image_seed);
    SCOPED_TRACE(shape(in));
    expect_backends_agree(in, {parse_stage("median", {"1"})});
  }
}

// Past the networks: 8-bit images take a sliding histogram per sample
// column over bands of at least 64 rows (median_histogram.cu), 16-bit ones
// a radix select over 32x16 tiles (median_radix.cu). Every radius, at
// heights around the bands and widths around the tiles and blocks.
TEST(GpuBackend, MedianPastTheNetworks) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {31, 63}, {33, 65}, {64, 130}, {5, 200}, {97, 17}};
  expect_every_radius_agrees("median", Median::kMaxGpuNetworkRadius + 1, 15, sizes, 500);
}

// Black and white squares: each histogram's tracked median crosses the
// whole range where a window meets an edge.
TEST(GpuBackend, MedianAcrossHardEdges) {
  GPUIMG_REQUIRE_GPU();
  for (Depth d : {Depth::U8, Depth::U16}) {
    Image in(301, 257, 3, d);
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x)
        for (int c = 0; c < 3; ++c) {
          const int v = ((x / 13 + y / 9 + c) % 2) * max_sample(d);
          const std::size_t i = (static_cast<std::size_t>(y) * in.width + x) * 3 + c;
          if (d == Depth::U8)
            in.samples<std::uint8_t>()[i] = static_cast<std::uint8_t>(v);
          else
            in.samples<std::uint16_t>()[i] = static_cast<std::uint16_t>(v);
        }
    for (const char* r : {"1", "2", "3", "4", "9", "15"}) expect_backends_agree(in, {parse_stage("median", {r})});
  }
}

TEST(GpuBackend, MedianFullHd) {
  GPUIMG_REQUIRE_GPU();
  for (const char* r : {"1", "2", "3", "7"})
    for (Depth d : {Depth::U8, Depth::U16})
      expect_backends_agree(random_image(1920, 1080, d == Depth::U8 ? 3 : 1, d, 13), {parse_stage("median", {r})});
}

// More tile rows than a grid holds (65535 x 16) for the networks and the
// radix select, and more bands of 64 rows for the histograms, which
// lengthen them.
TEST(GpuBackend, MedianTallImageBeyondTheGridLimit) {
  GPUIMG_REQUIRE_GPU();
  for (Depth d : {Depth::U8, Depth::U16})
    for (const char* r : {"1", "4"})
      expect_backends_agree(random_image(2, 4300000, 1, d, 17), {parse_stage("median", {r})});
}

// --gaussian past the one pass's radii (kernels/gaussian.cu): rows in spans
// of 256 pixels, with radii short of and past a span; columns in blocks of
// 32 samples and bands of 64 rows, read 64 rows at a time; sizes on both
// sides of each, and radii larger than the image. S = 0.3 to 3 take the one
// pass (gaussian_fused.cu). --unsharp's last step likewise.
TEST(GpuBackend, GaussianAndUnsharpAtTileEdges) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {255, 3}, {257, 65}, {3, 200}, {513, 129}, {1000, 63}};
  std::uint32_t seed = 500;
  for (const char* s : {"0.3", "1", "3", "10", "45.5", "100"})
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : sizes) {
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          SCOPED_TRACE(std::string("S=") + s + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                       std::to_string(channels));
          expect_backends_agree(random_image(w, h, channels, d, image_seed), {parse_stage("gaussian", {s})});
        }
  for (const char* values : {"0.6,3", "1,1.5,2%", "3,0.7", "10,2,0.5%", "100,1,1%"})
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{257, 65}, std::pair{3, 200}}) {
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          SCOPED_TRACE(std::string("unsharp ") + values + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                       std::to_string(channels));
          expect_backends_agree(random_image(w, h, channels, d, image_seed), {parse_stage("unsharp", {values})});
        }
}

// The one pass (gaussian_fused.cu) at every radius it takes, r = 1 to 12,
// and the first past it: strips of 256 sample columns of which 256 - 2rC
// are outputs, so widths of one strip's outputs, one pixel more and two
// strips and a bit; bands of 64 rows.
TEST(GpuBackend, GaussianEveryOnePassRadius) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 900;
  for (int r = 1; r <= kMaxOnePassGaussianRadius + 1; ++r) {
    const std::string sigma = std::to_string((r - 0.5) / 3);  // ceil(3S) = r
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels) {
        const int strip = (256 - 2 * r * channels) / channels;
        for (auto [w, h] : {std::pair{strip, 1}, std::pair{strip + 1, 65}, std::pair{2 * strip + 3, 130}}) {
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          SCOPED_TRACE("r=" + std::to_string(r) + " " + std::to_string(w) + "x" + std::to_string(h) + "x" +
                       std::to_string(channels));
          expect_backends_agree(random_image(w, h, channels, d, image_seed), {parse_stage("gaussian", {sigma})});
        }
      }
  }
}

// Rows of whole words (gaussian_words.cu), --gaussian's and --unsharp's,
// 8-bit and 16-bit pixels of at most a word, at every radius it takes and
// the first past it: row lengths around a warp's 32 words and a block's
// 128, some shorter than the halo, with the image's edges inside and at the
// ends of warps; heights around the batches of 2 and 4 rows, some shorter
// than the radius.
TEST(GpuBackend, GaussianWordRows) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 1300;
  for (int r = 1; r <= kMaxGaussianWordsRadius + 1; ++r) {
    const std::string sigma = std::to_string((r - 0.5) / 3);  // ceil(3S) = r
    for (const WordRowsShape& w :
         word_rows_shapes({Depth::U8, Depth::U16}, {1, 3, 31, 32, 33, 129, 257}, {1, 3, 70})) {
      const std::uint32_t image_seed = seed++;
      if (!sweep_takes(image_seed)) continue;
      const Image in = random_image(w.width, w.height, w.channels, w.depth, image_seed);
      SCOPED_TRACE("r=" + std::to_string(r) + " " + shape(in));
      expect_backends_agree(in, {parse_stage("gaussian", {sigma})});
      // --unsharp's last step on the same path: alpha kept, the threshold
      // met by some differences and not others.
      if (w.words % 2 == 1) expect_backends_agree(in, {parse_stage("unsharp", {sigma + ",1.5,3%"})});
    }
  }
}

// The benchmark's sizes of σ, on Full HD images and in pipelines with
// the other kinds of stage.
TEST(GpuBackend, GaussianFullHd) {
  GPUIMG_REQUIRE_GPU();
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels : {1, 3, 4}) {
      const Image in = random_image(1920, 1080, channels, d, 21 + channels);
      for (const char* s : {"1", "3", "10"}) expect_backends_agree(in, {parse_stage("gaussian", {s})});
      expect_backends_agree(in, {parse_stage("levels", {"5%,95%"}), parse_stage("gaussian", {"2"}),
                                 parse_stage("unsharp", {"1.5,1.2,1%"}), parse_stage("resize", {"50%"}),
                                 parse_stage("gaussian", {"30"})});
    }
}

// --resize's passes (resample.cu): along x, strips of 128 output pixels
// over 8 rows with their weights and input run in shared memory; along y,
// a word of samples a thread where rows are whole words and no alpha is
// divided out, else a pixel a thread. Widths around the strips, rows
// around the row groups, either axis alone and both, shrinking and
// enlarging, every filter, depth and channel count.
TEST(GpuBackend, ResizeStripsAndColumnWords) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 1700;
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (auto [w, h] : {std::pair{1, 1}, std::pair{129, 9}, std::pair{260, 17}, std::pair{1001, 40}}) {
        const std::uint32_t image_seed = seed++;
        std::uint32_t case_key = image_seed * 64;  // the image's cases, fewer than 64
        const Image in = random_image(w, h, channels, d, image_seed);
        for (const char* size : {"50%", "37%", "230%", "129x", "x7", "3x300"})
          for (ResizeFilter f : kResizeFilters) {
            if (!sweep_takes(case_key++)) continue;
            const std::string arg = std::string(size) + ":" + resize_filter_name(f);
            SCOPED_TRACE(arg + " of " + shape(in));
            expect_backends_agree(in, {parse_stage("resize", {arg})});
          }
      }
}

// --resize's kernels of tiles, 8-bit gray and RGB with both axes changing:
// 64 output columns a tile and 8 to 128 rows, so sides around those; runs
// of up to 5 taps by dp4a (resample_tiles.cu) in one or two groups of four
// (enlarging, and halving by box and linear where input rows are not whole
// 8-byte vectors, which the steady kernel leaves to them), their weights'
// high bytes alone where every weight is a multiple of 2^16 (box halving
// 66 to 33; not 63 or 129 to 32 or 65); longer ones on the tensor cores
// (resample_tiles_mma.cu), eight outputs reading one to eight chunks of 32
// inputs (enlarging by lanczos3, halving, a third, a fifth, a seventh, box
// shrinking 17 and 20 times), and past them (lanczos3 shrinking 20 times),
// where the two passes take it; rows of whole words and not (word and byte
// stores, and 16-byte vector stores where the output's rows and the tile's
// are whole vectors: 80x40, 128x130, both tiles of it at 80 gray and RGB
// pixels); 2 and 4 channels take the passes; a tile whose input run is more
// groups of four pixels than the block has threads (box shrinking 20
// times). ResizeTilesFullHd takes whole images of many tiles.
TEST(GpuBackend, ResizeTiles) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 2100;
  for (int channels = 1; channels <= 4; ++channels)
    for (auto [w, h] : {std::pair{1, 1}, std::pair{1, 70}, std::pair{70, 1}, std::pair{63, 65}, std::pair{64, 64},
                        std::pair{66, 66}, std::pair{130, 129}, std::pair{333, 201}}) {
      const std::uint32_t image_seed = seed++;
      std::uint32_t case_key = image_seed * 64;  // the image's cases, fewer than 64
      const Image in = random_image(w, h, channels, Depth::U8, image_seed);
      for (const char* size : {"50%", "33%", "20%", "14%", "230%", "65x31", "80x40", "128x130"})
        for (ResizeFilter f : kResizeFilters) {
          if (!sweep_takes(case_key++)) continue;
          const std::string arg = std::string(size) + ":" + resize_filter_name(f);
          SCOPED_TRACE(arg + " of " + shape(in));
          expect_backends_agree(in, {parse_stage("resize", {arg})});
        }
    }
  for (auto [channels, size] : {std::pair{1, "120x128:box"}, std::pair{3, "100x128:box"},
                                std::pair{3, "100x128:lanczos3"}}) {
    const Image in = random_image(2048, 64, channels, Depth::U8, seed++);
    SCOPED_TRACE(std::string(size) + " of " + shape(in));
    expect_backends_agree(in, {parse_stage("resize", {size})});
  }
}

TEST(GpuBackend, ResizeTilesFullHd) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 2200;
  for (int channels : {1, 3}) {
    const Image in = random_image(1920, 1080, channels, Depth::U8, seed++);
    for (const char* size : {"50%", "200%", "230%", "1000x563", "50%:linear", "230%:cubic", "50%:box", "200%:linear"}) {
      SCOPED_TRACE(std::string(size) + " of " + shape(in));
      expect_backends_agree(in, {parse_stage("resize", {size})});
    }
  }
}

// Halving by box and linear in the steady kernel (resample_steady.cu), 8-bit
// gray and RGB: steady_halving_fits says each shape below reaches it (so a
// change to its conditions cannot send them elsewhere unnoticed). Strips of
// four output pixels, 128 a block: from one strip (24 wide: linear's
// steady columns 1 to 10, whole strips 4 to 7) to several blocks (1040 and
// 2056 wide); box has no frame, linear a frame of its edge rows and
// columns and the columns past whole strips. Bands as one wave of blocks
// makes them: two rows at these sizes, many in the tall ones (24x40000),
// whose frame's threads also take several outputs each. Shapes it does not
// take (input rows not of whole 8-byte vectors, 1036 wide, a steady part
// too narrow for a strip, alpha, 16 bits) go elsewhere, and agree too.
TEST(GpuBackend, ResizeSteadyHalving) {
  GPUIMG_REQUIRE_GPU();
  const auto fits = [](const Image& in, ResizeFilter f) {
    const int w = in.width / 2;
    const std::vector<std::int32_t> data =
        pack_resample({f, plan_axis(f, in.width, w), plan_axis(f, in.height, in.height / 2)});
    return in.depth == Depth::U8 &&
           steady_halving_fits(unpack_resample(data.data(), data.data()), in.channels, in.width, w);
  };
  std::uint32_t seed = 2300;
  const auto halve = [&](int w, int h, int channels, Depth d, bool taken) {
    const Image in = random_image(w, h, channels, d, seed++);
    for (ResizeFilter f : {ResizeFilter::box, ResizeFilter::linear}) {
      const std::string arg = std::string("50%:") + resize_filter_name(f);
      SCOPED_TRACE(arg + " of " + shape(in));
      EXPECT_EQ(fits(in, f), taken && (f == ResizeFilter::box || w >= 24));
      expect_backends_agree(in, {parse_stage("resize", {arg})});
    }
  };
  for (int channels : {1, 3}) {
    for (auto [w, h] : {std::pair{8, 2}, std::pair{24, 6}, std::pair{40, 18}, std::pair{264, 34},
                        std::pair{1040, 20}, std::pair{2056, 50}, std::pair{24, 40000}})
      halve(w, h, channels, Depth::U8, true);
    for (auto [w, h] : {std::pair{2, 2}, std::pair{12, 6}, std::pair{18, 18}, std::pair{34, 36}, std::pair{1036, 20}})
      halve(w, h, channels, Depth::U8, false);
    halve(40, 18, channels, Depth::U16, false);
  }
  for (int channels : {2, 4}) halve(40, 18, channels, Depth::U8, false);
}

// Halving along x by nearest (resample_nearest.cu): output x is input
// 2 x + 1, eight output pixels a thread where rows are whole vectors
// (nearest_halving_fits says which shapes below reach it, so a change to
// its conditions cannot send them elsewhere unnoticed), and the columns
// past whole groups a pixel a thread, which 2, 4, 6 and 8 bytes a pixel
// leave at widths of 16 n + 8 (four columns), and 8 bytes at 18, 22 and
// 30 (one, three and seven); many groups a row at 1056 and 1064. Heights
// halved and kept. Widths the kernel does not take (rows off the vectors)
// go to the row segments, and agree too.
TEST(GpuBackend, ResizeNearestHalving) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 2400;
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (int w : {16, 18, 22, 30, 40, 104, 1056, 1064})
        for (int h : {1, 2, 7, 30}) {
          const std::uint32_t image_seed = seed++;
          const Image in = random_image(w, h, channels, d, image_seed);
          const int pixel_bytes = channels * (d == Depth::U8 ? 1 : 2);
          const std::vector<std::int32_t> data = pack_resample(
              {ResizeFilter::nearest, plan_axis(ResizeFilter::nearest, w, w / 2),
               plan_axis(ResizeFilter::nearest, h, (h + 1) / 2)});
          EXPECT_EQ(nearest_halving_fits(unpack_resample(data.data(), data.data()), pixel_bytes, w, w / 2),
                    w * pixel_bytes % 16 == 0)
              << shape(in);
          if (!sweep_takes(image_seed)) continue;
          for (const std::string& size : {std::string("50%"), std::to_string(w / 2) + "x" + std::to_string(h)}) {
            SCOPED_TRACE(size + ":nearest of " + shape(in));
            expect_backends_agree(in, {parse_stage("resize", {size + ":nearest"})});
          }
        }
}

// Rows that keep their axes move in segments of up to 2033 bytes (677 RGB
// pixels), turned, for flop and rotate 180, three words of 4 RGB or 2
// RGB 16-bit pixels a lane and the rest a pixel a lane: widths around the
// segments and the groups, every depth and channel count.
TEST(GpuBackend, TurnedRowsAcrossSegments) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 1800;
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (int w : {2, 5, 676, 677, 678, 1355, 2049, 4099}) {
        const Image in = random_image(w, 3, channels, d, seed++);
        for (const auto& [op, args] : {std::pair<const char*, std::vector<std::string>>{"flop", {}},
                                       {"rotate", {"180"}}, {"flip", {}}, {"crop", {"100x2+1+1"}}}) {
          SCOPED_TRACE(std::string(op) + " of " + shape(in));
          expect_backends_agree(in, {parse_stage(op, args)});
        }
      }
}

// Rows of whole 16-byte vectors (48-byte units where flop and rotate 180
// turn 3- or 6-byte pixels) move straight through registers, each warp an
// equal run of the output's vectors across rows: widths that make every
// pixel size's rows such, from one unit a row to many, images of fewer
// units than warps and of many blocks, and crops whose left edge falls on
// a vector (16 pixels in) beside one that does not (1 pixel in), which
// takes the segments.
TEST(GpuBackend, RowsOfWholeVectors) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 1850;
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (auto [w, h] : {std::pair{16, 1}, {16, 5}, {528, 3}, {1536, 2}, {2064, 7}, {1920, 64}}) {
        const Image in = random_image(w, h, channels, d, seed++);
        std::vector<std::pair<const char*, std::vector<std::string>>> ops = {
            {"flop", {}}, {"rotate", {"180"}}, {"flip", {}}, {"crop", {"16x1+0+0"}}};
        if (w > 16) ops.insert(ops.end(), {{"crop", {"32x4+16+1"}}, {"crop", {"32x4+1+1"}}});
        for (const auto& [op, args] : ops) {
          SCOPED_TRACE(std::string(op) + (args.empty() ? "" : " " + args[0]) + " of " + shape(in));
          expect_backends_agree(in, {parse_stage(op, args)});
        }
      }
}

// Quarter turns and transposes move whole bands of 32x32 tiles (four at 1,
// 2 and 3 bytes a pixel, one at 6) in words where every row of both images
// starts on one: sizes that make it so at every pixel size (sides multiples of 4),
// with whole bands, partial bands and partial tiles at the edges, and one
// (an odd side) that keeps a pixel a thread.
TEST(GpuBackend, TransposedTilesInWords) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 1900;
  for (Depth d : {Depth::U8, Depth::U16})
    for (int channels = 1; channels <= 4; ++channels)
      for (auto [w, h] : {std::pair{64, 64}, {96, 160}, {100, 68}, {260, 36}, {200, 300}, {66, 98}, {97, 64}}) {
        const Image in = random_image(w, h, channels, d, seed++);
        for (const auto& [op, args] : {std::pair<const char*, std::vector<std::string>>{"transpose", {}},
                                       {"rotate", {"90"}}, {"rotate", {"270"}}}) {
          SCOPED_TRACE(std::string(op) + (args.empty() ? "" : " " + args[0]) + " of " + shape(in));
          expect_backends_agree(in, {parse_stage(op, args)});
        }
      }
}

TEST(GpuBackend, WideSingleRow) {
  GPUIMG_REQUIRE_GPU();
  expect_backends_agree(random_image(1 << 20, 1, 4, Depth::U8, 6),
                        {parse_stage("blur", {"300"}), parse_stage("sharpen", {"2.5"})});
}

// Each chain as one pass, on narrow and full ranges, at sizes whose sample
// counts end inside a thread's group of vectors, and one of many blocks.
TEST(GpuBackend, TablePassesAgree) {
  GPUIMG_REQUIRE_GPU();
  for (const auto& chain : table_chains())
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{37, 23}, std::pair{1927, 1081}}) {
          const Image in = random_image(w, h, channels, d, 5 + channels);
          SCOPED_TRACE(describe(stages(chain).front()) + "... on " + shape(in));
          expect_backends_agree(in, stages(chain));
          expect_backends_agree(narrow_ranges(in), stages(chain));
        }
}

// 16-bit table passes after stages whose data is not a whole number of
// 16-byte vectors: the lane starts each stage's data on a 16-byte boundary,
// which the bulk copy of a table's 16-bit entries needs (and the paths
// refuse it without). At 16 bits the tables stay passes of their own.
TEST(GpuBackend, SixteenBitTablesAfterStageDataOfAnySize) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::vector<std::string>> before = {
      {"convolve", "3x3:1,2,1,2,4,2,1,2,1"}, {"convolve", "5x1:1,1,1,1,1"}, {"gaussian", "1"}, {"resize", "50%"}};
  bool odd = false;
  for (const auto& stage : before)
    for (int channels : {1, 2, 3}) {
      const std::vector<std::vector<std::string>> words = {stage, {"levels", "5%,95%"}, {"gamma", "1.8"}};
      const Image in = random_image(257, 31, channels, Depth::U16, 40 + channels);
      const Pipeline planned = plan_pipeline(stages(words), shape_of(in), UINT64_MAX, "the image", PlanFor::cuda);
      odd = odd || stage_data(planned, 0).size() % 4 != 0;
      SCOPED_TRACE(describe(stages(words).front()) + " on " + shape(in));
      expect_backends_agree(in, stages(words));
    }
  EXPECT_TRUE(odd) << "no stage before the tables had data of an odd number of words: the test tests nothing";
}

// The one-pass paths of --blur, --gaussian and --median with the tables
// of the runs before and after them, which the GPU's plan fuses at 8 bits
// (lib/plan.cpp; the CPU's runs each run on its own, as the GPU's does at
// 16 bits, TablePass.GpuPlanRunsTablesInTheBlursPass): every channel
// count, the vector blur's rows (whole 16-byte vectors) and the staged
// one's, tables before, after, both, and an inversion alone after (the
// complement layout), at radii from 1 to the one-pass limits; and where
// the word rows paths take the stage, the tables in passes of their own.
TEST(GpuBackend, TablesInTheBlursPassGiveTheStagesBytes) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::vector<std::vector<std::string>>> around = {
      {{"levels", "5%,95%"}, {"gamma", "1.8"}, {"OP"}, {"invert"}},
      {{"linear", "1.3,-0.1"}, {"OP"}},
      {{"OP"}, {"threshold", "40%"}, {"gamma", "0.6"}},
      {{"OP"}, {"invert"}},
  };
  const std::vector<std::vector<std::string>> ops = {{"blur", "1"}, {"blur", "2"}, {"blur", "3"}, {"blur", "8"},
                                                     {"gaussian", "0.3"}, {"gaussian", "1"}, {"gaussian", "4"},
                                                     {"median", "1"}, {"median", "2"}, {"median", "3"}};
  std::uint32_t seed = 700;
  for (const auto& op : ops)
    for (const auto& words : around)
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : {std::pair{1, 1}, std::pair{1, 17}, std::pair{19, 1}, std::pair{16, 16}, std::pair{48, 9},
                            std::pair{257, 31}, std::pair{320, 20}}) {
          std::vector<std::vector<std::string>> chain = words;
          for (auto& stage : chain)
            if (stage.front() == "OP") stage = op;
          const Pipeline pipeline = stages(chain);
          // Rows of whole words take the word rows paths of the Gaussian
          // up to r = 9 and the median at R = 1, and the tables passes
          // of their own (TablePass.GpuPlanRunsTablesInTheBlursPass): the
          // first pass is then the run before the stage, or the stage.
          const bool word_rows = (op == std::vector<std::string>{"gaussian", "0.3"} ||
                                  op == std::vector<std::string>{"gaussian", "1"} ||
                                  op == std::vector<std::string>{"median", "1"}) &&
                                 w * channels % 4 == 0;
          const int before = static_cast<int>(
              std::find_if(chain.begin(), chain.end(), [&](const auto& stage) { return stage == op; }) - chain.begin());
          ASSERT_EQ(plan_pipeline(pipeline, Shape{w, h, channels, 1}, UINT64_MAX, "", PlanFor::cuda).front().span,
                    word_rows ? std::max(before, 1) : static_cast<int>(pipeline.size()))
              << (word_rows ? "the tables run apart from the word rows path" : "the GPU runs the chain in one pass");
          const std::uint32_t image_seed = seed++;
          if (!sweep_takes(image_seed)) continue;
          const Image in = random_image(w, h, channels, Depth::U8, image_seed);
          SCOPED_TRACE(op[0] + " " + op[1] + " with " + describe(pipeline.front()) + "... on " + shape(in));
          expect_backends_agree(in, pipeline);
        }
}

// Each kernel on images of only 0s and maxima, every channel count: the
// samples that take a kernel's sums to their extremes, which uniform
// samples almost never do.
void expect_agree_on_zeros_and_maxima(std::initializer_list<const char*> kernels, int w, int h, std::uint32_t& seed,
                                      Depth depth = Depth::U8) {
  for (const char* kernel : kernels)
    for (int channels = 1; channels <= 4; ++channels) {
      Image in = random_image(w, h, channels, depth, seed++);
      if (depth == Depth::U8)
        for (std::uint8_t& v : in.data) v = v & 1 ? 255 : 0;
      else
        for (std::size_t i = 0; i < in.data.size() / 2; ++i) in.samples<std::uint16_t>()[i] = in.data[2 * i] & 1 ? 65535 : 0;
      SCOPED_TRACE(std::string(kernel) + " on 0s and maxima, " + shape(in));
      expect_backends_agree(in, {parse_stage("convolve", {kernel})});
    }
}

// Convolve's two kernels (convolve_small.cu up to 7x7 on the exact path,
// convolve.cu for the rest) at sizes around their tiles of 256 samples by
// 32 rows and 128 by 32, with every channel count's pixels cut at a tile's
// edge, and past the grid's 65535 tile rows.
TEST(GpuBackend, ConvolveEveryKernel) {
  GPUIMG_REQUIRE_GPU();
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {37, 1}, {1, 41}, {2, 3}, {85, 32}, {86, 33}, {257, 31}, {300, 70}};
  std::uint32_t seed = 500;
  for (const std::string& kernel : convolve_kernels())
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (auto [w, h] : sizes) {
          const Image in = random_image(w, h, channels, d, seed++);
          SCOPED_TRACE(kernel + " on " + shape(in));
          expect_backends_agree(in, {parse_stage("convolve", {kernel})});
        }
  // The paired 8-bit sums' limits: only 0s and 255s under the A = 257
  // kernels take a half of a pair to 0 and to 65535 (bias and S).
  expect_agree_on_zeros_and_maxima({"1x3:128,1,128", "3x1:-128,1,128", "1x3:-128,1,-128"}, 300, 70, seed);
  for (const std::string& kernel : {ones(5, 5), ones(9, 9), random_kernel(3, 3, -1, 1, false, 11)})
    expect_backends_agree(random_image(2, 2100000, 1, Depth::U8, seed++), {parse_stage("convolve", {kernel})});
  for (const std::string& kernel : {ones(5, 5), random_kernel(5, 5, -9, 9, true, 2), random_kernel(5, 5, -1, 2, false, 7)})
    for (Depth d : {Depth::U8, Depth::U16})
      expect_backends_agree(random_image(1920, 1080, 3, d, seed++), {parse_stage("convolve", {kernel})});
}

// The tensor cores' path (convolve_mma.cu; convolve_mma.hpp says which
// stages below take it, so a change to its conditions cannot send them
// elsewhere unnoticed): rows of every alignment to 16 bytes, so that each
// staged row lands at each word of its first vector; a last tile of 256
// bytes cut short (4 and 88 bytes), so that both edges are replicated
// within one product; images shorter than the kernel; every kernel
// height; both depths; and the extremes of signed and unsigned weights on
// images of 0s and maxima.
TEST(GpuBackend, ConvolveOnTheTensorCores) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 5100;
  const std::vector<std::string> kernels = {ones(5, 5), random_kernel(5, 5, -9, 9, true, 2), "1x1:-3",
                                            random_kernel(3, 7, -128, 127, true, 21), random_kernel(7, 3, 0, 255, true, 22),
                                            random_kernel(7, 7, -20, 20, true, 23), "5x1:1,4,6,4,1", "7x1:-1,2,-3,4,-3,2,-1",
                                            // exact at 16 bits too (|weights| add up to 129 and 198)
                                            random_kernel(7, 7, -5, 5, true, 42), random_kernel(3, 3, -40, 40, true, 43)};
  // Rows of 4 to 344 bytes, each alignment to 16 at some channel count.
  const std::initializer_list<int> widths8 = {4, 12, 84, 256, 260, 344}, widths16 = {2, 6, 42, 128, 130, 172};
  for (const std::string& kernel : kernels) {
    const OpRecord rec = parse_stage("convolve", {kernel});
    const Convolve::Params& p = rec.get<Convolve>();
    for (Depth d : {Depth::U8, Depth::U16})
      for (int channels = 1; channels <= 4; ++channels)
        for (int w : d == Depth::U8 ? widths8 : widths16)
          for (int h : {1, 33}) {
            const int bytes = d == Depth::U8 ? 1 : 2;
            if (w * channels * bytes % 4 != 0) continue;
            const std::uint32_t image_seed = seed++;
            const Image in = random_image(w, h, channels, d, image_seed);
            const std::vector<std::int32_t> data = Convolve::stage_data(p, shape_of(in));
            EXPECT_EQ(mma_convolve_weights(shape_of(in), p, data.data()) != MmaWeights::none,
                      Convolve::sums(data.data()).exact && p.size.width / 2 * channels * bytes <= kMaxMmaReach)
                << kernel << " on " << shape(in);
            if (!sweep_takes(image_seed)) continue;
            SCOPED_TRACE(kernel + " on " + shape(in));
            expect_backends_agree(in, {rec});
          }
  }
  expect_agree_on_zeros_and_maxima({"3x3:-128,127,-128,127,-128,127,-128,127,-128", "3x1:255,255,255", "1x3:-128,0,-128"},
                                   300, 40, seed);
  expect_agree_on_zeros_and_maxima({"3x1:-128,127,0", "1x3:-128,0,-128", "1x3:0,255,0", "3x3:1,-1,1,-1,1,-1,1,-1,1"}, 150,
                                   40, seed, Depth::U16);
}

// The same past the grid's 65535 tile rows, and at 1080p (too slow for the
// sanitizers, which take the test above).
TEST(GpuBackend, ConvolveOnTheTensorCoresLarge) {
  GPUIMG_REQUIRE_GPU();
  std::uint32_t seed = 5200;
  expect_backends_agree(random_image(4, 2100000, 1, Depth::U8, seed++), {parse_stage("convolve", {ones(3, 5)})});
  for (const std::string& kernel : {ones(5, 5), random_kernel(5, 5, -9, 9, true, 2)}) {
    expect_backends_agree(random_image(1920, 1080, 3, Depth::U8, seed++), {parse_stage("convolve", {kernel})});
    expect_backends_agree(random_image(1920, 1080, 1, Depth::U16, seed++), {parse_stage("convolve", {kernel})});
  }
}

TEST(GpuBackend, ReportsStageTimes) {
  GPUIMG_REQUIRE_GPU();
  Image img = random_image(100, 100, 3, Depth::U8, 3);
  RunTimes t;
  run_cuda(img, {parse_stage("blur", {"2"}), parse_stage("invert", {})}, &t);
  ASSERT_EQ(t.stage_ms.size(), 2u);
  EXPECT_GT(t.upload_ms, 0);
  EXPECT_GT(t.download_ms, 0);
}

}  // namespace
}  // namespace gpuimg::test

namespace gpuimg::test {
namespace {

// A launch the GPU refuses (a halo past kMaxStencilHalo) must surface as a
// DeviceError naming the stage, and leave the caller's image as it was.
TEST(GpuBackend, LaunchFailureBecomesDeviceErrorAndNoImage) {
  GPUIMG_REQUIRE_GPU();
  const Image in = random_image(40, 30, 3, Depth::U8, 8);
  Image img = in;
  OpRecord bad = parse_stage("sharpen", {"1"});
  bad.halo = kMaxStencilHalo + 1;
  try {
    run_cuda(img, {parse_stage("invert", {}), bad});
    FAIL() << "expected a DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("launching stage 2 (sharpen F=1)"), std::string::npos) << e.what();
    EXPECT_EQ(e.code(), ExitCode::device);
  }
  EXPECT_TRUE(same_samples(in, img));
  // The context is still usable afterwards.
  expect_backends_agree(in, {parse_stage("invert", {})});
}

}  // namespace
}  // namespace gpuimg::test
