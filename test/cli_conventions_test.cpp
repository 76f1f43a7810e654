// Conventions every mode shares: sizes written as numbers with exponents or
// as WxH, -q accepted by one image as by a batch, a warning (once) for
// --quality where the output has none, and --help with one usage block and
// value names that say what is expected.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "image_compare.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

constexpr char kQualityWarning[] =
    "gpuimg: warning: --quality sets JPEG's and WebP's quality only; ignored for png output (-q: no warnings)\n";

TEST(CliConventions, MaxPixelsTakesExponentsAndSizes) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(20, 20, 3, Depth::U8, 5));
  for (const std::string ok : {"400", "4e2", "4.0e2", "20x20", "1e6", "16384x16384"}) {
    const RunResult r = run_binary({dir.file("in.png"), "--max-pixels", ok, dir.file("out.png")});
    EXPECT_EQ(r.status, 0) << ok << ": " << r.err;
  }
  for (const std::string over : {"399", "3.99e2", "19x20"}) {
    const RunResult r = run_binary({dir.file("in.png"), "--max-pixels", over, dir.file("out.png")});
    EXPECT_EQ(r.status, 1) << over;
    EXPECT_NE(r.err.find("over the limit of " + std::to_string(over == "19x20" ? 380 : 399)), std::string::npos)
        << r.err;
  }
  for (const std::string bad : {"1.5", "1e400", "0x5", "5x0", "x5", "5x", "5x5x5", "-1e3", "4e2 ", "0"}) {
    const RunResult r = run_binary({dir.file("in.png"), "--max-pixels", bad, dir.file("out.png")});
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(r.err, "gpuimg: --max-pixels: must be a positive integer (1000000, 1e6) or WxH (16384x16384), got '" +
                         bad + "' (see gpuimg --help)\n");
  }
}

// WebP is lossless, the pixels as they are, unless --quality asks for
// libwebp's lossy coding: a smaller file, close to the pixels.
TEST(CliConventions, QualityMakesWebPLossy) {
  TempDir dir;
  const std::string scene = (data_dir() / "scene.png").string();
  ASSERT_EQ(run_binary({scene, dir.file("lossless.webp")}).status, 0);
  RunResult r = run_binary({scene, "--quality", "50", dir.file("lossy.webp")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const Image original = read_image(scene), lossless = read_image(dir.file("lossless.webp")),
              lossy = read_image(dir.file("lossy.webp"));
  EXPECT_EQ(lossless.data, original.data);
  ASSERT_EQ(lossy.data.size(), original.data.size());
  double squares = 0;
  for (std::size_t i = 0; i < lossy.data.size(); ++i) {
    const double d = double(lossy.data[i]) - original.data[i];
    squares += d * d;
  }
  const double psnr = 10 * std::log10(255.0 * 255.0 * lossy.data.size() / squares);
  EXPECT_GT(psnr, 25) << "lossy, but the picture";
  EXPECT_NE(lossy.data, original.data);
  EXPECT_LT(fs::file_size(dir.file("lossy.webp")) * 2, fs::file_size(dir.file("lossless.webp")));
}

TEST(CliConventions, QualityOnAFormatWithoutOneWarnsOnce) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(3, 2, 3, Depth::U8, 6));
  RunResult r = run_binary({dir.file("in.png"), "--quality", "80", dir.file("out.png")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, kQualityWarning);
  r = run_binary({dir.file("in.png"), "--quality", "80", "png:-"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, kQualityWarning);
  r = run_binary({dir.file("in.png"), "--quality", "80", dir.file("out.jpg")});
  EXPECT_EQ(r.err, "");
  r = run_binary({dir.file("in.png"), "--quality", "80", "-q", dir.file("out.png")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // A batch says it once, not once a file.
  write_image(dir.file("b.png"), random_image(2, 3, 1, Depth::U16, 7));
  r = run_binary({dir.file("in.png"), dir.file("b.png"), "--quality", "80", "--format", "png", "--device", "cpu",
                  dir.file("out") + "/"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find(kQualityWarning), 0u) << r.err;
  EXPECT_EQ(r.err.find("warning:", 10), std::string::npos) << r.err;
}

TEST(CliConventions, PngLevelOnAnotherFormatWarnsOnce) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(3, 2, 3, Depth::U8, 6));
  RunResult r = run_binary({dir.file("in.png"), "--png-level", "9", dir.file("out.jpg")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "gpuimg: warning: --png-level sets PNG's compression only; ignored for jpg output (-q: no warnings)\n");
  r = run_binary({dir.file("in.png"), "--png-level", "9", dir.file("out.png")});
  EXPECT_EQ(r.err, "");
  r = run_binary({dir.file("in.png"), "--png-level", "9", "-q", dir.file("out.webp")});
  EXPECT_EQ(r.err, "");
}

// --depth sets the output's bits a sample: 16-bit samples rounded to 8 as
// round(v * 255 / 65535), 8-bit ones widened as v * 257, the other layout's
// samples as they are; in a batch, every output's. A format of 8-bit
// samples alone warns once and writes 8 bits.
TEST(CliConventions, DepthSetsTheOutputsBitsASample) {
  TempDir dir;
  for (int channels = 1; channels <= 4; ++channels) {
    SCOPED_TRACE(std::to_string(channels) + " channels");
    const Image wide = random_image(7, 5, channels, Depth::U16, 30 + channels);
    const Image narrow = random_image(7, 5, channels, Depth::U8, 40 + channels);
    write_image(dir.file("wide.png"), wide);
    write_image(dir.file("narrow.png"), narrow);
    RunResult r = run_binary({dir.file("wide.png"), "--depth", "8", dir.file("w8.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const Image w8 = read_image(dir.file("w8.png"));
    ASSERT_EQ(w8.depth, Depth::U8);
    ASSERT_EQ(w8.channels, channels);
    for (std::size_t i = 0; i < wide.pixel_count() * channels; ++i)
      ASSERT_EQ(w8.samples<std::uint8_t>()[i], std::lround(wide.samples<std::uint16_t>()[i] * 255.0 / 65535.0)) << i;
    r = run_binary({dir.file("narrow.png"), "--depth", "16", dir.file("n16.png")});
    ASSERT_EQ(r.status, 0) << r.err;
    const Image n16 = read_image(dir.file("n16.png"));
    ASSERT_EQ(n16.depth, Depth::U16);
    for (std::size_t i = 0; i < narrow.pixel_count() * channels; ++i)
      ASSERT_EQ(n16.samples<std::uint16_t>()[i], narrow.samples<std::uint8_t>()[i] * 257) << i;
    for (const char* d : {"8", "16"}) {
      const Image& same = std::string(d) == "8" ? narrow : wide;
      write_image(dir.file("same.png"), same);
      r = run_binary({dir.file("same.png"), "--depth", d, dir.file("same_out.png")});
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(same_samples(read_image(dir.file("same_out.png")), same)) << d;
    }
  }
  write_image(dir.file("a.png"), random_image(4, 3, 3, Depth::U16, 50));
  write_image(dir.file("b.png"), random_image(3, 4, 1, Depth::U16, 51));
  RunResult r = run_binary({dir.file("a.png"), dir.file("b.png"), "--depth", "8", "--device", "cpu", dir.file("out") + "/"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_image(dir.file("out/a.png")).depth, Depth::U8);
  EXPECT_EQ(read_image(dir.file("out/b.png")).depth, Depth::U8);
  write_image(dir.file("c.png"), random_image(4, 3, 3, Depth::U8, 52));
  r = run_binary({dir.file("c.png"), "--depth", "16", dir.file("c.jpg")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "gpuimg: warning: --depth 16 sets the samples of PNG, TIFF and PNM only; jpg output holds 8-bit samples "
            "(-q: no warnings)\n");
  EXPECT_EQ(read_image(dir.file("c.jpg")).depth, Depth::U8);
  r = run_binary({dir.file("c.png"), "--depth", "16", "-q", dir.file("c.bmp")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(CliConventions, AFormatUnlikeTheOutputsExtensionWarns) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(3, 2, 3, Depth::U8, 6));
  RunResult r = run_binary({dir.file("in.png"), "--format", "jpg", dir.file("out.png")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "gpuimg: warning: writing JPEG into " + dir.file("out.png") +
                       ", whose extension says PNG (-q: no warnings)\n");
  EXPECT_EQ(read_image(dir.file("out.png")).channels, 3);  // written as asked: a JPEG, read by its bytes
  for (const std::vector<std::string>& quiet : {std::vector<std::string>{"--format", "png", dir.file("same.png")},
                                                {"--format", "jpg", "-q", dir.file("quiet.png")},
                                                {"--format", "jpeg", dir.file("out.jpg")}}) {
    std::vector<std::string> args = {dir.file("in.png")};
    args.insert(args.end(), quiet.begin(), quiet.end());
    r = run_binary(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
  }
}

// An empty --format (a script's unset variable) is refused as any other
// unknown format, not taken for no --format, and nothing is written.
TEST(CliConventions, AnEmptyFormatIsRefused) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(3, 2, 3, Depth::U8, 7));
  const RunResult r = run_binary({dir.file("in.png"), "--format", "", dir.file("out.png")});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("gpuimg: --format: '' is no format gpuimg writes (png, ", 0), 0u) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("out.png")));
}

// A subcommand's --help ends in its own words, not the processing
// command's exit statuses and examples.
TEST(CliConventions, SubcommandHelpIsItsOwn) {
  RunResult r = run_binary({"report", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("see gpuimg report merge --help"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("3 GPU error"), std::string::npos) << r.out;
  r = run_binary({"golden", "update", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("Exit status: 0 every golden written or unchanged, 2 error"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("1 different"), std::string::npos) << r.out;
}

TEST(CliConventions, QuietIsAcceptedForOneImage) {
  TempDir dir;
  write_image(dir.file("in.png"), random_image(1, 1, 4, Depth::U8, 8));
  for (const std::string q : {"-q", "--quiet"}) {
    const RunResult r = run_binary({dir.file("in.png"), q, "--invert", dir.file("out.png")});
    EXPECT_EQ(r.status, 0) << q << ": " << r.err;
    EXPECT_EQ(r.err, "");
  }
}

TEST(CliConventions, HelpHasOneUsageBlockAndNamedValues) {
  const RunResult r = run_binary({"--help"});
  ASSERT_EQ(r.status, 0);
  std::size_t usages = 0;
  for (std::size_t at = 0; (at = r.out.find("Usage:", at)) != std::string::npos; ++at) ++usages;
  EXPECT_EQ(usages, 1u) << r.out;
  EXPECT_EQ(r.out.find("TEXT"), std::string::npos) << r.out;
  for (const std::string named : {"--device auto|cuda|cpu", "--max-pixels N|WxH", "--quality Q", "--frame N"})
    EXPECT_NE(r.out.find(named), std::string::npos) << named;
  const RunResult compare = run_binary({"compare", "--help"});
  EXPECT_NE(compare.out.find("Usage:"), std::string::npos) << compare.out;
}

// -v in a batch names the device and each file as it is written; -q keeps
// the progress line and warnings away, as for one image.
TEST(CliConventions, VerboseBatchNamesEachFileWritten) {
  TempDir dir;
  write_image(dir.file("a.png"), random_image(3, 1, 2, Depth::U8, 9));
  write_image(dir.file("b.png"), random_image(1, 3, 3, Depth::U16, 10));
  const RunResult r = run_binary({dir.file("a.png"), dir.file("b.png"), "-v", "-q", "--device", "cpu",
                                  dir.file("out") + "/"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("gpuimg: device: cpu; 2 files\n"), 0u) << r.err;
  for (const std::string name : {"a.png", "b.png"})
    EXPECT_NE(r.err.find("gpuimg: " + dir.file(name) + " -> " + dir.file("out") + "/" + name + "\n"),
              std::string::npos)
        << r.err;
}

// compare -q reports by its exit status alone, as cmp -s; -v adds the device.
TEST(CliConventions, CompareTakesQuietAndVerbose) {
  TempDir dir;
  write_image(dir.file("a.png"), random_image(4, 4, 1, Depth::U8, 11));
  write_image(dir.file("b.png"), random_image(4, 4, 1, Depth::U8, 12));
  RunResult r = run_binary({"compare", dir.file("a.png"), dir.file("b.png"), "-q"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  r = run_binary({"compare", dir.file("a.png"), dir.file("a.png"), "--quiet"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  r = run_binary({"compare", dir.file("a.png"), dir.file("a.png"), "-v", "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out, "");
  EXPECT_EQ(r.err.rfind("gpuimg: device: cpu", 0), 0u) << r.err;
  r = run_binary({"compare", dir.file("a.png"), dir.file("a.png"), "-q", "--json"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("-q and --json: give one or the other"), std::string::npos) << r.err;
}

// ImageMagick's single-dash operations are pointed to gpuimg's, by the
// same name or by ImageMagick's own (its -blur is a Gaussian), with what
// differs where anything does; a slip in a double-dash name still gets the
// nearest option, and a single-dash one whose first letter is a short flag
// (-quality: -q) the double-dash name.
TEST(CliConventions, ImageMagickOperationsArePointedToGpuimgs) {
  struct Case {
    std::string word, says;
  };
  for (const Case& c :
       {Case{"-blur", "unknown option '-blur': ImageMagick's -blur is gpuimg's --gaussian S (>0..100); -blur 0xS is "
                      "--gaussian S (gpuimg's --blur R is a box)"},
        Case{"-median", "unknown option '-median': ImageMagick's -median is gpuimg's --median R (1..15); -median N, "
                        "an NxN window, is --median R with N = 2R + 1"},
        Case{"-fx", "unknown option '-fx': ImageMagick's -fx is gpuimg's --map EXPR; -fx's u, i and j are v, x and y"},
        Case{"-quality", "unknown option '-quality'; did you mean --quality?"},
        Case{"-verbose", "unknown option '-verbose'; did you mean --verbose?"},
        Case{"-negate", "unknown option '-negate': ImageMagick's -negate is gpuimg's --invert"},
        Case{"-gaussian-blur", "unknown option '-gaussian-blur': ImageMagick's -gaussian-blur is gpuimg's --gaussian "
                               "S (>0..100); -gaussian-blur 0xS is --gaussian S"},
        Case{"-normalize", "unknown option '-normalize': ImageMagick's -normalize is gpuimg's --normalize, which "
                           "stretches each channel's own full range as -channel RGB -auto-level does, without "
                           "-normalize's clipping of the darkest 2% and brightest 1%"},
        Case{"-sharpen", "unknown option '-sharpen': ImageMagick's -sharpen is gpuimg's --unsharp S (>0..100)[,A "
                         "(0..100)[,T (0..1 or 0..100%)]]; -sharpen 0xS is closest to --unsharp S (gpuimg's "
                         "--sharpen F is a 3x3 Laplacian)"},
        Case{"-scale", "unknown option '-scale': ImageMagick's -scale is gpuimg's --resize SIZE[:FILTER "
                       "(nearest|box|linear|cubic|lanczos3)] with :box (-scale 50% is --resize 50%:box)"},
        Case{"-bluur", "unknown option '-bluur'; did you mean --blur?"}}) {
    const RunResult r = run_binary({"in.png", c.word, "3", "out.png"});
    EXPECT_EQ(r.status, 2) << c.word;
    EXPECT_EQ(r.err, "gpuimg: " + c.says + " (see gpuimg --help)\n");
  }
}

// gpuimg on data/tiny.png with `words` between it and OUTPUT: a usage
// error saying `says`, and no OUTPUT written.
void expect_refusal(const std::vector<std::string>& words, const std::string& says) {
  TempDir dir;
  std::vector<std::string> args = {(data_dir() / "tiny.png").string()};
  args.insert(args.end(), words.begin(), words.end());
  args.push_back(dir.file("out.png"));
  const RunResult r = run_binary(args);
  EXPECT_EQ(r.status, 2) << words.front();
  EXPECT_EQ(r.err, "gpuimg: " + says + " (see gpuimg --help)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.png")));
}

using Refusals = std::vector<std::pair<std::vector<std::string>, std::string>>;

// ImageMagick's ways of writing a value, refused, with gpuimg's way named;
// no hint where the value shows no such habit.
TEST(CliConventions, ImageMagickValuesAreTranslated) {
  for (const auto& [words, says] : Refusals{
           {{"--blur", "0x3"}, "--blur: R must be an integer from 1 to 4096, got '0x3'; ImageMagick's -blur RxS is a "
                                "Gaussian of sigma S, here --gaussian S (--blur R is a box)"},
        {{"--unsharp", "0x2+1+0.05"},
             "--unsharp: S must be a decimal number above 0, at most 100, got '0x2+1+0.05'; ImageMagick's -unsharp "
             "RxS+A+T is --unsharp S,A,T/2 here (its threshold tests twice the difference)"},
        {{"--median", "3x3"}, "--median: R must be an integer from 1 to 15, got '3x3'; ImageMagick's NxN window "
                                  "is --median R here, N = 2R + 1 (3x3 is --median 1)"},
        {{"--threshold", "128"}, "--threshold: T must be a fraction from 0 to 1 or a percentage from 0% to 100%, "
                                     "got '128'; ImageMagick counts levels of its QuantumRange (65535 in its usual "
                                     "Q16 build, 255 in Q8), gpuimg a fraction of the range or a percentage: 128 is "
                                     "0.2% of 65535, 50.2% of 255"},
        {{"--levels", "0,240"}, "--levels: W must be a fraction from 0 to 1 or a percentage from 0% to 100%, got "
                                    "'240'; ImageMagick counts levels of its QuantumRange (65535 in its usual Q16 "
                                    "build, 255 in Q8), gpuimg a fraction of the range or a percentage: 240 is 0.4% "
                                    "of 65535, 94.1% of 255"},
        // Past a double: refused as any other value, with no hint.
        {{"--threshold", std::string(400, '9')}, "--threshold: T must be a fraction from 0 to 1 or a percentage "
                                                     "from 0% to 100%, got '" + std::string(400, '9') + "'"},
        {{"--threshold", "1.5"}, "--threshold: T must be a fraction from 0 to 1 or a percentage from 0% to 100%, "
                                     "got '1.5'"},
        {{"--gaussian", "fast"}, "--gaussian: S must be a decimal number above 0, at most 100, got 'fast'"}})
    expect_refusal(words, says);
}

// A word left over after an option's value is named with what the option
// takes: quotes where the value with the words after it is one the
// operation takes, or where the option is no operation (a file name).
TEST(CliConventions, AWordLeftAfterAnOperationIsNamed) {
  for (const auto& [words, says] : Refusals{
           {{"--crop", "2x2+0+0", "+repage"}, "unexpected argument '+repage' after --crop 2x2+0+0: ImageMagick's "
                                              "+repage has no counterpart here (an image keeps no virtual canvas to "
                                              "reset); drop it"},
        {{"--gaussian", "2", "3"}, "unexpected argument '3' after --gaussian 2: --gaussian takes one value"},
        {{"--invert", "1"}, "unexpected argument '1' after --invert: --invert takes no value"},
        {{"--map", "v", "+", "0.1"},
             "unexpected argument '+' after --map v: a value with spaces needs quotes (--map 'v + 0.1')"},
        {{"--report", "my", "report.json"},
             "unexpected argument 'report.json' after --report my: a value with spaces needs quotes (--report 'my "
             "report.json')"}})
    expect_refusal(words, says);
}

// ImageMagick's settings, pseudo-formats and frame suffix, and its
// identify, named with what does their job here.
TEST(CliConventions, ImageMagickSettingsArePointedToWhatDoesTheirJob) {
  for (const auto& [words, says] : Refusals{
           {{"-filter", "Lanczos", "--resize", "50%"},
            "unknown option '-filter': ImageMagick's -filter: a filter is --resize's suffix, as in --resize "
            "50%:lanczos3 (nearest, box, linear, cubic, lanczos3)"},
           {{"-auto-orient"}, "unknown option '-auto-orient': ImageMagick's -auto-orient: gpuimg turns an image by its "
                              "EXIF orientation unless --no-auto-orient"}})
    expect_refusal(words, says);
  TempDir dir;
  const std::string in = (data_dir() / "tiny.png").string();
  const RunResult metric = run_binary({"compare", in, in, "-metric", "AE"});
  EXPECT_EQ(metric.status, 2);
  EXPECT_EQ(metric.err, "gpuimg: unknown option '-metric': ImageMagick's -metric: compare prints every metric "
                        "(ImageMagick's AE is its 'differing' pixels); a limit such as --max-differing N or --min-psnr "
                        "DB fails it (see gpuimg compare --help)\n");
  const RunResult null = run_binary({in, "null:"});
  EXPECT_EQ(null.status, 2);
  EXPECT_EQ(null.err, "gpuimg: null: is ImageMagick's pseudo-format that throws the image away; here write "
                      "png:/dev/null (see gpuimg --help)\n");
  const RunResult frame = run_binary({in + "[1]", dir.file("out.png")});
  EXPECT_EQ(frame.status, 1);
  EXPECT_EQ(frame.err,
            "gpuimg: " + in + "[1]: no such file (ImageMagick's FILE[1] is frame 1: gpuimg FILE --frame 1 ... reads it)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.png")));
  const RunResult identify = run_binary({"identify", in});
  EXPECT_EQ(identify.status, 2);
  EXPECT_EQ(identify.err,
            "gpuimg: 'identify' is no command: ImageMagick's identify is gpuimg info FILE... (see gpuimg --help)\n");
}

}  // namespace
}  // namespace gpuimg::test
