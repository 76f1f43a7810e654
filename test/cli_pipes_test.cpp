// The built binary on streams: `-` as INPUT reads stdin, `-` (with
// --format) or EXT:- as OUTPUT writes stdout, a FIFO or device given as
// OUTPUT is written in place, and a batch refuses them. Each run's bytes
// are checked against the same run through regular files.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "crafted_files.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool one_line(const std::string& err) {
  return err.rfind("gpuimg: ", 0) == 0 && err.find('\n') == err.size() - 1;
}

// in.png (5x3 RGBA, 16-bit: not on any tile grid) and the bytes of
// `gpuimg in.png --invert out.png`, what every stream run must give.
struct Fixture {
  TempDir dir;
  std::string input = dir.file("in.png");
  std::string expected;

  Fixture() {
    write_image(input, random_image(5, 3, 4, Depth::U16, 24));
    const RunResult r = run_binary({input, "--invert", "--device", "cpu", dir.file("expected.png")});
    EXPECT_EQ(r.status, 0) << r.err;
    expected = read_bytes(dir / "expected.png");
  }
};

TEST(CliPipes, StdinIsReadWhenInputIsDash) {
  const Fixture f;
  RunOptions options;
  options.stdin_bytes = read_bytes(f.input);
  const RunResult r = run_binary({"-", "--invert", "--device", "cpu", f.dir.file("out.png")}, options);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_bytes(f.dir / "out.png"), f.expected);
}

TEST(CliPipes, StdinFormatIsSniffedFromItsBytes) {
  const Fixture f;
  const RunResult jpg = run_binary({f.input, f.dir.file("in.jpg")});
  ASSERT_EQ(jpg.status, 0) << jpg.err;
  RunOptions options;
  options.stdin_bytes = read_bytes(f.dir / "in.jpg");
  const RunResult r = run_binary({"-", "--device", "cpu", f.dir.file("out.png")}, options);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(same_samples(read_image(f.dir.file("in.jpg")), read_image(f.dir.file("out.png"))));
}

TEST(CliPipes, StdinThatIsNoImageFailsNamingStdin) {
  const Fixture f;
  RunOptions options;
  options.stdin_bytes = std::string(100, 'x');
  const RunResult r = run_binary({"-", f.dir.file("out.png")}, options);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.err.rfind("gpuimg: stdin: ", 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(f.dir / "out.png"));
}

// The limits that hold a file hold stdin: a header over --max-pixels is
// refused before the rest is read, and a stream running past what its
// header allows is cut off.
TEST(CliPipes, StdinHasTheLimitsOfAFile) {
  const Fixture f;
  RunOptions big;
  const Bytes header = png_header(1000, 1000);
  big.stdin_bytes = std::string(header.begin(), header.end()) + std::string(1 << 20, '\0');
  RunResult r = run_binary({"-", "--max-pixels", "1000", f.dir.file("out.png")}, big);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("stdin: image is 1000x1000 (1000000 pixels), over the limit of 1000"), std::string::npos)
      << r.err;

  RunOptions endless;
  const Bytes tga = tga_mapped(2, 2, Bytes(3, 0), Bytes(4, 0));
  endless.stdin_bytes = std::string(tga.begin(), tga.end()) + std::string(std::size_t{80} << 20, '\0');
  r = run_binary({"-", f.dir.file("out.png")}, endless);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find("stdin: input goes on past"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(f.dir / "out.png"));
}

TEST(CliPipes, StdoutIsWrittenWithFormatOrExtColonDash) {
  const Fixture f;
  for (const std::vector<std::string>& out : {std::vector<std::string>{"-", "--format", "png"}, {"png:-"},
                                               {"PNG:-", "--format", ".png"}, {"/dev/stdout", "--format", "png"}}) {
    std::vector<std::string> args = {f.input, "--invert", "--device", "cpu"};
    args.insert(args.end(), out.begin(), out.end());
    const RunResult r = run_binary(args);
    ASSERT_EQ(r.status, 0) << out[0] << ": " << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, f.expected) << out[0];
  }
}

TEST(CliPipes, StdinToStdoutAsAFilter) {
  const Fixture f;
  RunOptions options;
  options.stdin_bytes = read_bytes(f.input);
  const RunResult r = run_binary({"-", "--invert", "--device", "cpu", "jpg:-"}, options);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(run_binary({f.input, "--invert", "--device", "cpu", f.dir.file("expected.jpg")}).status, 0);
  EXPECT_EQ(r.out, read_bytes(f.dir / "expected.jpg"));
}

// Nothing reaches stdout unless the whole image encoded: a failed run
// leaves it empty, so a reader never takes a part for an image.
TEST(CliPipes, FailedRunWritesNothingToStdout) {
  const Fixture f;
  const std::string png = read_bytes(f.input);
  save(f.dir.file("cut.png"), Bytes(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(png.size() / 2)));
  const RunResult r = run_binary({f.dir.file("cut.png"), "--invert", "png:-"});
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(CliPipes, StdoutBadCommandLinesExit2) {
  const Fixture f;
  struct Bad {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Bad& bad : {Bad{{f.input, "-"}, "OUTPUT -: stdout has no extension to choose a format by"},
                         Bad{{f.input, "xyz:-"}, "xyz:-: 'xyz' is no format gpuimg writes (png, jpg"},
                         Bad{{f.input, "png:"}, "png:: no file after the format (png:- writes to stdout)"},
                         Bad{{f.input, "gif:"}, "gif:: gpuimg reads gif but does not write it"},
                         Bad{{f.input, "png:-", "--format", "jpg"}, "--format jpg and OUTPUT png:- name different"}}) {
    const RunResult r = run_binary(bad.args);
    EXPECT_EQ(r.status, 2) << bad.args[1];
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(bad.says), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

// A FIFO is written through, not replaced by a regular file whose reader
// would get nothing; the reader gets the whole image and the FIFO stays.
// ImageMagick's FMT:FILE: the format, then the file, for outputs and
// (the bytes still saying the format) inputs.
TEST(CliPipes, FormatColonFileAsImageMagicksForm) {
  TempDir tmp;
  const std::string scene = (data_dir() / "scene.png").string();
  RunResult r = run_binary({scene, "png:out.jpg"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "gpuimg: warning: writing PNG into out.jpg, whose extension says JPEG (-q: no warnings)\n");
  std::ifstream written(tmp / "out.jpg", std::ios::binary);
  std::string magic(4, '\0');
  written.read(magic.data(), 4);
  EXPECT_EQ(magic, "\x89PNG");
  EXPECT_FALSE(fs::exists(tmp / "png:out.jpg"));
  std::ifstream in(scene, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  RunOptions piped{tmp.path()};
  piped.stdin_bytes = bytes;
  r = run_binary({"png:-", "--invert", "from_stdin.png"}, piped);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "from_stdin.png"));
  // Too long a name to stat as it stands: read as its file, not a crash.
  r = run_binary({"png:" + std::string(300, 'a') + ".png", "x.png"}, {tmp.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  // A file named like stdout in a format: ./png:- is a file.
  r = run_binary({scene, "--format", "png", "./png:-"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "png:-"));
  r = run_binary({scene, "gif:-"}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: gif:-: gpuimg reads gif but does not write it (see gpuimg --help)\n");
}

// The FMT: prefix in a batch and in compare, as in the one-image form: an
// input named so is read as its file; an output folder's prefix is the
// format its files are written in.
TEST(CliPipes, FormatColonFileInABatchAndInCompare) {
  TempDir tmp;
  const std::string scene = (data_dir() / "scene.png").string();
  fs::copy_file(scene, tmp / "a.png");
  RunResult r = run_binary({"png:a.png", "png:" + scene, "png:out/"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "out" / "a.png"));
  EXPECT_TRUE(fs::exists(tmp / "out" / "scene.png"));
  EXPECT_FALSE(fs::exists(tmp / "png:out"));
  r = run_binary({"a.png", "jpg:jpegs/"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "jpegs" / "a.jpg"));
  r = run_binary({"a.png", "--format", "tga", "jpg:jpegs/"}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: --format tga and OUTPUT jpg:jpegs/ name different formats (see gpuimg --help)\n");
  r = run_binary({"a.png", "gif:gifs/"}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpuimg: gif:gifs/: gpuimg reads gif but does not write it (see gpuimg --help)\n");
  // Two names of one format agree; a mistyped prefix is refused, not made a file's name.
  r = run_binary({"a.png", "--format", "jpeg", "jpg:same.jpg"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "same.jpg"));
  r = run_binary({"a.png", "--format", "pgm", "ppm:x.ppm"}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  for (const auto& [typo, hint] : {std::pair<std::string, std::string>{"pgn:out.png", "; did you mean png? ("},
                                    {"xyz:out/", " ("}}) {
    r = run_binary({"a.png", "b.png", typo}, {tmp.path()});
    EXPECT_EQ(r.status, 2) << typo;
    r = run_binary({"a.png", typo}, {tmp.path()});
    EXPECT_EQ(r.status, 2) << typo;
    EXPECT_NE(r.err.find(typo + ": '" + typo.substr(0, 3) + "' is no format gpuimg writes" + hint), std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(tmp / typo));
  }
  r = run_binary({"a.png", "--format", "jgp", "-"}, {tmp.path()});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--format: 'jgp' is no format gpuimg writes; did you mean jpg? (png, jpg"), std::string::npos)
      << r.err;

  r = run_binary({"compare", "png:a.png", "png:" + scene, "-q"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  // A file really named png:a.png changes nothing: the prefix names a.png,
  // which the output would write over; ./png:a.png is the other file.
  fs::copy_file(data_dir() / "gray.png", tmp / "png:a.png");
  r = run_binary({"png:a.png", "--invert", "a.png"}, {tmp.path()});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("a.png: is the input file"), std::string::npos) << r.err;
  r = run_binary({"compare", "png:a.png", scene, "-q"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  r = run_binary({"compare", "./png:a.png", scene, "-q"}, {tmp.path()});
  EXPECT_EQ(r.status, 1) << r.err;
  std::ifstream in(scene, std::ios::binary);
  RunOptions piped{tmp.path()};
  piped.stdin_bytes = std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  r = run_binary({"compare", "png:-", "a.png", "-q"}, piped);
  EXPECT_EQ(r.status, 0) << r.err;
}

// Text for stdout that cannot all be written (a full disk: /dev/full) is
// a failure with one line saying so, never exit 0 and an empty report.
TEST(CliPipes, TextThatStdoutCannotTakeIsAFailure) {
  if (::access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no /dev/full";
  const std::string scene = (data_dir() / "scene.png").string();
  for (const auto& [args, status] : std::vector<std::pair<std::vector<std::string>, int>>{
           {{"--list-ops"}, 1}, {{"--completion", "bash"}, 1}, {{"compare", scene, scene, "--json"}, 2}}) {
    SCOPED_TRACE(testing::PrintToString(args));
    std::vector<std::string> words = {"-c", "exec \"$0\" \"$@\" > /dev/full", GPUIMG_BINARY};
    words.insert(words.end(), args.begin(), args.end());
    const RunResult r = run_program("/bin/sh", words);
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_EQ(r.err, "gpuimg: stdout: cannot write: no space left on device\n");
  }
}

TEST(CliPipes, FifoOutputIsWrittenInPlace) {
  const Fixture f;
  const std::string fifo = f.dir.file("out.png");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = read_bytes(fifo); });
  const RunResult r = run_binary({f.input, "--invert", "--device", "cpu", fifo});
  reader.join();
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(got, f.expected);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(f.dir.names(), (std::vector<std::string>{"expected.png", "in.png", "out.png"}));
}

// A FIFO has no extension to go by; --format gives one.
TEST(CliPipes, FifoWithoutExtensionTakesFormat) {
  const Fixture f;
  const std::string fifo = f.dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  RunResult r = run_binary({f.input, fifo});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no file extension to choose the output format from: give --format EXT"), std::string::npos)
      << r.err;
  std::string got;
  std::thread reader([&] { got = read_bytes(fifo); });
  r = run_binary({f.input, "--invert", "--device", "cpu", fifo, "--format", "png"});
  reader.join();
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(got, f.expected);
}

// A character device is written in place too: /dev/null takes the image
// (a rename over it would need /dev to be writable).
TEST(CliPipes, CharacterDeviceOutputIsWrittenInPlace) {
  const Fixture f;
  const RunResult r = run_binary({f.input, "--invert", "/dev/null", "--format", "png"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(CliPipes, BatchRefusesStreams) {
  const Fixture f;
  fs::create_directory(f.dir / "out");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"-", f.dir.file("out") + "/"},
                                               {f.input, "-", f.dir.file("out") + "/"},
                                               {f.input, f.input, "png:-"}}) {
    const RunResult r = run_binary(args);
    EXPECT_EQ(r.status, 2) << args[1];
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("stdin and stdout take one image, not a batch's"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(fs::is_empty(f.dir / "out"));
}

// A listed "-" fails as that file alone; the batch goes on.
TEST(CliPipes, BatchReportsAListedDashAsItsOwnFailure) {
  const Fixture f;
  std::ofstream(f.dir / "list.txt") << "-\nin.png\n";
  RunOptions options;
  options.cwd = f.dir.path();
  const RunResult r = run_binary({"--files-from", "list.txt", "--device", "cpu", "out/"}, options);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("gpuimg: -: stdin takes one image, not a batch's"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(f.dir / "out" / "in.png"));
}

}  // namespace
}  // namespace gpuimg::test
