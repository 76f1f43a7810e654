// gpuimg info, run as a user runs it: one line a file on stdout, in the
// words of the tool's messages, or one JSON document of the same facts; a
// file that cannot be read named on its own line on stderr, the others
// still listed, exit 1; stdin as "-"; no pixel limit, as nothing is decoded.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "crafted_files.hpp"
#include "json_reader.hpp"
#include "metadata.hpp"
#include "metadata_files.hpp"
#include "printable.hpp"
#include "run_binary.hpp"
#if GPUIMG_WITH_TIFF
#include "tiff_files.hpp"
#endif

namespace gpuimg::test {
namespace {

// `gpuimg info WORDS... FILES...`.
RunResult info(std::vector<std::string> words, const std::vector<std::string>& files, const RunOptions& options = {}) {
  words.insert(words.begin(), "info");
  words.insert(words.end(), files.begin(), files.end());
  return run_binary(words, options);
}

RunOptions fed(const Bytes& bytes) {
  RunOptions options;
  options.stdin_bytes = std::string(bytes.begin(), bytes.end());
  return options;
}

std::vector<std::string> bundled_pngs() {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(data_dir()))
    if (entry.path().extension() == ".png") out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The line info prints for a file of no metadata, from the decoded image.
std::string plain_line(const std::string& shown, const char* format, const Image& img) {
  return shown + ": " + format + " " + std::to_string(img.width) + "x" + std::to_string(img.height) + ", " +
         std::to_string(img.channels) + (img.channels == 1 ? " channel (" : " channels (") +
         layout_name(img.channels) + "), " + std::to_string(8 * bytes_per_sample(img.depth)) + "-bit";
}

// A 6x4 photo as a camera turned sideways writes it: EXIF orientation 6,
// an ICC profile, XMP and 300 dpi.
Metadata camera_metadata() {
  Metadata m;
  m.icc = icc_profile(3144);
  m.exif = exif_block(6);
  const std::string xmp = xmp_packet();
  m.xmp.assign(xmp.begin(), xmp.end());
  m.resolution = {Resolution::Unit::inch, 300, 300};
  return m;
}

std::string photo(const TempDir& dir) {
  const std::string path = dir.file("photo.jpg");
  write_image(path, random_image(6, 4, 3, Depth::U8, 1), WriteOptions{}, camera_metadata());
  return path;
}

TEST(InfoCli, EachBundledImageIsOneLineOfWhatDecodingGives) {
  const std::vector<std::string> files = bundled_pngs();
  const RunResult r = info({}, files);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::string expected;
  for (const std::string& f : files) expected += plain_line(f, "PNG", read_image(f)) + "\n";
  EXPECT_EQ(r.out, expected);
}

TEST(InfoCli, AJpegsMetadataIsNamedWithItsSizes) {
  const TempDir dir;
  const std::string path = photo(dir);
  const Metadata m = camera_metadata();
  const RunResult r = info({}, {path});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, path + ": JPEG 6x4, 3 channels (RGB), 8-bit, ICC profile 3144 bytes, EXIF " +
                       std::to_string(m.exif.size()) + " bytes, orientation 6 (upright 4x6), XMP " +
                       std::to_string(m.xmp.size()) + " bytes, 300 dpi\n");
}

// The first frame's or page's shape, and the count: frames, or a TIFF's pages.
TEST(InfoCli, FramesAndPagesAreCounted) {
  const TempDir dir;
  const GifFrame frame = {0, 0, 2, 1, gif_lzw({1, 2}, 2)};
  save(dir.file("anim.gif"), animated_gif(2, 1, {frame, frame, frame}));
  std::vector<std::string> files = {dir.file("anim.gif")};
  std::string expected = dir.file("anim.gif") + ": GIF 2x1, 4 channels (RGBA), 8-bit, 3 frames\n";
#if GPUIMG_WITH_TIFF
  TiffSpec gray16, rgb;
  gray16.width = 3;
  gray16.height = 2;
  gray16.bits = 16;
  rgb.width = 1;
  rgb.height = 1;
  rgb.samples = 3;
  rgb.photometric = PHOTOMETRIC_RGB;
  save(dir.file("pages.tif"), tiff_bytes({{gray16, {Bytes(12, 0)}}, {rgb, {Bytes(3, 0)}}}));
  files.push_back(dir.file("pages.tif"));
  expected += dir.file("pages.tif") + ": TIFF 3x2, 1 channel (gray), 16-bit, 2 pages\n";
#endif
  const RunResult r = info({}, files);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, expected);
}

// Each problem in the I/O layer's words, the file named; the files after
// a bad one are still listed, and the exit status says one failed.
TEST(InfoCli, AFileThatCannotBeReadIsNamedAndTheOthersStillListed) {
  const TempDir dir;
  const std::string good = (data_dir() / "tiny.png").string(), scene = (data_dir() / "scene.png").string();
  Bytes cut = load(scene);
  cut.resize(cut.size() / 2);
  save(dir.file("cut.png"), cut);
  Bytes cut_jpeg = load(photo(dir));
  cut_jpeg.resize(cut_jpeg.size() - 10);
  save(dir.file("cut.jpg"), cut_jpeg);
  save(dir.file("notes.txt"), Bytes{'h', 'e', 'l', 'l', 'o', '\n'});
  const RunResult r =
      info({}, {dir.file("missing.png"), good, dir.file("cut.png"), dir.file("notes.txt"), dir.file("cut.jpg"), scene});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, plain_line(good, "PNG", read_image(good)) + "\n" + plain_line(scene, "PNG", read_image(scene)) + "\n");
  const std::vector<std::string> errors = lines_of(r.err);
  ASSERT_EQ(errors.size(), 4u) << r.err;
  EXPECT_EQ(errors[0], "gpuimg: " + dir.file("missing.png") + ": no such file");
  EXPECT_EQ(errors[1].rfind("gpuimg: " + dir.file("cut.png") + ": truncated PNG (", 0), 0u) << errors[1];
  EXPECT_EQ(errors[2], "gpuimg: " + dir.file("notes.txt") + ": not a recognised image format");
  EXPECT_EQ(errors[3], "gpuimg: " + dir.file("cut.jpg") + ": truncated JPEG (no end-of-image marker)");
}

// One document: an array of one object a file, in the order given, each
// naming the schema; a file that could not be read holds its error alone.
TEST(InfoCli, JsonCarriesTheSameFacts) {
  const TempDir dir;
  std::vector<std::string> files = bundled_pngs();
  files.push_back(photo(dir));
  files.push_back(dir.file("missing.png"));
  const RunResult r = info({"--json"}, files);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + dir.file("missing.png") + ": no such file\n");
  const Json doc = parse_json(r.out);
  ASSERT_EQ(doc.kind, Json::Kind::array);
  ASSERT_EQ(doc.items.size(), files.size());
  for (std::size_t i = 0; i + 1 < files.size(); ++i) {
    SCOPED_TRACE(files[i]);
    const Json& o = doc.items[i];
    const Image img = read_image(files[i]);
    EXPECT_EQ(o["schema"].string, "gpuimg-info/1");
    EXPECT_EQ(o["path"].string, files[i]);
    EXPECT_EQ(o["error"].kind, Json::Kind::null);
    EXPECT_EQ(o["format"].string, i + 2 == files.size() ? "JPEG" : "PNG");
    EXPECT_EQ(o["width"].number, img.width);
    EXPECT_EQ(o["height"].number, img.height);
    EXPECT_EQ(o["channels"].number, img.channels);
    EXPECT_EQ(o["layout"].string, layout_name(img.channels));
    EXPECT_EQ(o["depth"].number, 8 * bytes_per_sample(img.depth));
    EXPECT_EQ(o["frames"].number, 1);
    EXPECT_EQ(o["ignored"].items.size(), 0u);
  }
  const Json& jpeg = doc.items[files.size() - 2];
  const Metadata m = camera_metadata();
  EXPECT_EQ(jpeg["icc_bytes"].number, 3144);
  EXPECT_EQ(jpeg["exif_bytes"].number, static_cast<double>(m.exif.size()));
  EXPECT_EQ(jpeg["orientation"].number, 6);
  EXPECT_EQ(jpeg["xmp_bytes"].number, static_cast<double>(m.xmp.size()));
  EXPECT_EQ(jpeg["resolution"]["unit"].string, "inch");
  EXPECT_EQ(jpeg["resolution"]["x"].number, 300);
  EXPECT_EQ(jpeg["resolution"]["y"].number, 300);
  EXPECT_EQ(doc.items[0]["resolution"].kind, Json::Kind::null);
  const Json& missing = doc.items.back();
  EXPECT_EQ(missing["path"].string, dir.file("missing.png"));
  EXPECT_EQ(missing["error"].string, "no such file");
  EXPECT_EQ(missing.members.size(), 3u) << "schema, path and error alone";
}

// A path is the user's bytes: quotes, backslashes, control bytes and bytes
// that are not UTF-8 leave the document valid JSON (strictly read), and
// the exact bytes come back from its printable form.
TEST(InfoCli, JsonHoldsAnyPathsBytes) {
  const TempDir dir;
  const Bytes tiny = load((data_dir() / "tiny.png").string());
  std::vector<std::string> files;
  for (const char* name : {"say \"cheese\".png", "back\\slash.png", "bell\x07 esc\x1b.png", "latin1 \xe9t\xe9.png"}) {
    files.push_back(dir.file(name));
    save(files.back(), tiny);
  }
  files.push_back(dir.file("gone \"\\\x01\xff.png"));
  const RunResult r = info({"--json"}, files);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "gpuimg: " + printable(files.back()) + ": no such file\n");
  const Json doc = parse_json(r.out);
  ASSERT_EQ(doc.items.size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(printable(files[i]));
    EXPECT_EQ(bytes_of_printable(doc.items[i]["path"].string), files[i]);
    const bool missing = i + 1 == files.size();
    EXPECT_EQ(doc.items[i]["error"].kind, missing ? Json::Kind::string : Json::Kind::null);
    if (!missing) {
      EXPECT_EQ(doc.items[i]["width"].number, 1);
    }
  }
  EXPECT_EQ(doc.items.back()["error"].string, "no such file");
}

TEST(InfoCli, StdinIsReadAsDashAndNamedStdin) {
  const std::string tiny = (data_dir() / "tiny.png").string();
  const Bytes bytes = load(tiny);
  const RunResult r = info({}, {"-", tiny}, fed(bytes));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, plain_line("stdin", "PNG", read_image(tiny)) + "\n" + plain_line(tiny, "PNG", read_image(tiny)) + "\n");
  const RunResult json = info({"--json"}, {"png:-"}, fed(bytes));
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_EQ(parse_json(json.out).items.at(0)["path"].string, "-");
  const RunResult twice = info({}, {"-", "-"});
  EXPECT_EQ(twice.status, 2);
  EXPECT_EQ(twice.err, "gpuimg: info: stdin holds one image: give - once (see gpuimg info --help)\n");
}

// 20000x20000 is over the default --max-pixels: the processing command
// refuses it from its header, info describes it from the same header.
TEST(InfoCli, AnImageOverThePixelLimitIsDescribed) {
  const TempDir dir;
  Bytes jpeg = load(photo(dir));
  const std::size_t sof = find_segment(jpeg, 0xc0);
  ASSERT_LT(sof, jpeg.size());
  for (const std::size_t at : {sof + 5, sof + 7}) {  // height, then width
    jpeg[at] = 20000 >> 8;
    jpeg[at + 1] = 20000 & 0xff;
  }
  // Entropy-coded data long enough for that many blocks, so that the file
  // is not refused as cut short.
  jpeg.insert(jpeg.end() - 2, 64 << 10, 0);
  save(dir.file("huge.jpg"), jpeg);
  const RunResult r = info({}, {dir.file("huge.jpg")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind(dir.file("huge.jpg") + ": JPEG 20000x20000, 3 channels (RGB), 8-bit, ", 0), 0u) << r.out;
  const RunResult processed = run_binary({dir.file("huge.jpg"), dir.file("out.png")});
  EXPECT_EQ(processed.status, 1);
  EXPECT_NE(processed.err.find("over the limit of 268435456 set by --max-pixels"), std::string::npos) << processed.err;
}

// No pixel limit, but no more read than a processing run with the default
// --max-pixels would: a longer file is refused from its size, unread (a
// sparse one here, which takes no disk; read whole it took 11.7 s and 2.9
// GB, then described the PNG at its start).
TEST(InfoCli, AFileLongerThanAnImageWithinTheDefaultLimitIsRefusedUnread) {
  const TempDir dir;
  const std::string path = dir.file("long.png");
  save(path, load((data_dir() / "tiny.png").string()));
  fs::resize_file(path, 3000000000);
  const RunResult r = info({}, {path});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "gpuimg: " + path +
                       ": file is 3000000000 bytes, more than any image within the default --max-pixels 268435456 can "
                       "take (2214592512 bytes)\n");
  EXPECT_LT(r.seconds, 5);
}

}  // namespace
}  // namespace gpuimg::test
