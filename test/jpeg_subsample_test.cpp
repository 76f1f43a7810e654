// --jpeg-subsample: the chroma sampling written, read back from the file's
// own frame header (SOF), and ImageMagick's default, 4:4:4 from quality 90
// up and 4:2:0 below.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "jpeg_frame.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

// The luma component's sampling factors, as the file's frame header has
// them (horizontal * 16 + vertical); the chroma components' are 1x1 in
// every file libjpeg writes, so this says the subsampling: 0x11 4:4:4,
// 0x21 4:2:2, 0x22 4:2:0.
int luma_sampling(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::optional<JpegFrame> frame =
      jpeg_frame_of({std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
  if (!frame || frame->sampling.empty()) {
    ADD_FAILURE() << path << ": no frame header";
    return 0;
  }
  return frame->sampling[0];
}

struct Case {
  std::vector<std::string> options;
  int sampling;
};

TEST(JpegSubsample, EachValueAndTheDefaultOnBothSidesOfQuality90AreWritten) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(37, 21, 3, Depth::U8, 3));
  const std::vector<Case> cases = {
      {{"--jpeg-subsample", "444"}, 0x11},
      {{"--jpeg-subsample", "422"}, 0x21},
      {{"--jpeg-subsample", "420"}, 0x22},
      {{"--jpeg-subsample", "420", "--quality", "100"}, 0x22},
      {{"--jpeg-subsample", "444", "--quality", "50"}, 0x11},
      {{}, 0x11},  // quality 95, the default
      {{"--quality", "90"}, 0x11},
      {{"--quality", "89"}, 0x22},
      {{"--quality", "10"}, 0x22},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {dir.file("in.png")};
    args.insert(args.end(), c.options.begin(), c.options.end());
    args.push_back(dir.file("out.jpg"));
    const RunResult r = run_binary(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(luma_sampling(dir.file("out.jpg")), c.sampling) << testing::PrintToString(c.options);
  }
}

// A gray JPEG has one component: nothing to subsample, whatever is asked.
TEST(JpegSubsample, GrayIsOneComponentWhateverIsAsked) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(9, 9, 1, Depth::U8, 4));
  const RunResult r = run_binary({dir.file("in.png"), "--jpeg-subsample", "420", dir.file("out.jpg")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(luma_sampling(dir.file("out.jpg")), 0x11);
}

TEST(JpegSubsample, BadValuesAreRefusedInOneLine) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(3, 3, 3, Depth::U8, 5));
  for (const std::string bad : {"411", "4:2:0", "", "2x2", "444 "}) {
    const RunResult r = run_binary({dir.file("in.png"), "--jpeg-subsample", bad, dir.file("out.jpg")});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.err, "gpuimg: --jpeg-subsample: must be 444, 422 or 420, got '" + bad + "' (see gpuimg --help)\n");
    EXPECT_FALSE(std::ifstream(dir.file("out.jpg")).good()) << bad;
  }
}

TEST(JpegSubsample, OnAnotherFormatWarnsOnce) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(3, 2, 3, Depth::U8, 6));
  const std::string warning =
      "gpuimg: warning: --jpeg-subsample sets JPEG's chroma subsampling only; ignored for png output (-q: no "
      "warnings)\n";
  RunResult r = run_binary({dir.file("in.png"), "--jpeg-subsample", "420", dir.file("out.png")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, warning);
  r = run_binary({dir.file("in.png"), "--jpeg-subsample", "420", "-q", dir.file("out.png")});
  EXPECT_EQ(r.err, "");
  write_image(dir.file("b.png"), random_image(2, 3, 1, Depth::U8, 7));
  r = run_binary({dir.file("in.png"), dir.file("b.png"), "--jpeg-subsample", "444", "--format", "png", "--device",
                  "cpu", dir.file("out") + "/"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find(warning), 0u) << r.err;
  EXPECT_EQ(r.err.find("warning:", 10), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpuimg::test
