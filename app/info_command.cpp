#include "info_command.hpp"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <new>
#include <optional>

#include "error.hpp"
#include "image_info.hpp"
#include "report_errors.hpp"
#include "report_json.hpp"
#include "run_report.hpp"

namespace gpuimg {
namespace {

constexpr const char* kInfoSchema = "gpuimg-info/1";

// What became of one file: its facts, or the error line said on stderr.
struct Described {
  std::string path;  // as given ("-" for stdin)
  std::optional<ImageInfo> info;
  std::string error;  // the problem, without the file's name in front
};

std::string size_text(std::uint64_t width, std::uint64_t height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

int bits(Depth depth) { return 8 * bytes_per_sample(depth); }

std::string bytes_text(std::size_t n) { return std::to_string(n) + " bytes"; }

// Six significant digits: a TIFF holds its resolution as 32-bit floats, so
// 118.11 reads back as 118.11000061035156 (the JSON keeps every digit).
std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// "300 dpi", "300x600 dpi", "118.11 pixels per cm", "pixel aspect 2:1".
std::string resolution_text(const Resolution& r) {
  const std::string x = short_number(r.x), y = short_number(r.y);
  if (r.unit == Resolution::Unit::aspect) return "pixel aspect " + x + ":" + y;
  return (x == y ? x : x + "x" + y) + (r.unit == Resolution::Unit::inch ? " dpi" : " pixels per cm");
}

const char* unit_name(Resolution::Unit unit) {
  switch (unit) {
    case Resolution::Unit::inch: return "inch";
    case Resolution::Unit::centimetre: return "centimetre";
    case Resolution::Unit::aspect: break;
  }
  return "aspect";
}

// "photo.jpg: JPEG 6000x4000, 3 channels (RGB), 8-bit, ICC profile 3144
// bytes, EXIF 12034 bytes, orientation 6 (upright 4000x6000), 300 dpi":
// what the file holds, in the words of the processing command's messages.
std::string text_line(const std::string& path, const ImageInfo& info) {
  const ImageShape& s = info.shape;
  const Metadata& m = info.metadata;
  std::string line = input_label(path) + ": " + format_name(info.format) + " " + size_text(s.width, s.height) + ", " +
                     std::to_string(s.channels) + (s.channels == 1 ? " channel (" : " channels (") +
                     layout_name(s.channels) + "), " + std::to_string(bits(s.depth)) + "-bit";
  if (info.frames > 1)
    line += ", " + std::to_string(info.frames) + (info.format == Format::tiff ? " pages" : " frames");
  if (!m.icc.empty()) line += ", ICC profile " + bytes_text(m.icc.size());
  if (!m.exif.empty()) line += ", EXIF " + bytes_text(m.exif.size());
  // 5 to 8 are a quarter turn: gpuimg turns such an image upright as it
  // reads it, its sides swapped.
  if (m.orientation != 1)
    line += ", orientation " + std::to_string(m.orientation) +
            (m.orientation >= 5 ? " (upright " + size_text(s.height, s.width) + ")" : "");
  if (!m.xmp.empty()) line += ", XMP " + bytes_text(m.xmp.size());
  if (m.resolution.given()) line += ", " + resolution_text(m.resolution);
  for (const std::string& item : m.ignored) line += ", ignored " + item;
  return printable(line) + "\n";
}

std::string json_object(const Described& d) {
  std::string out = "{\"schema\": " + json_string(kInfoSchema) + ", \"path\": " + json_string(d.path) + ", \"error\": ";
  if (!d.info) return out + json_string(d.error) + "}";
  const ImageShape& s = d.info->shape;
  const Metadata& m = d.info->metadata;
  out += "null, \"format\": " + json_string(format_name(d.info->format)) + ", \"width\": " + std::to_string(s.width) +
         ", \"height\": " + std::to_string(s.height) + ", \"channels\": " + std::to_string(s.channels) +
         ", \"layout\": " + json_string(layout_name(s.channels)) + ", \"depth\": " + std::to_string(bits(s.depth)) +
         ", \"frames\": " + std::to_string(d.info->frames) + ", \"icc_bytes\": " + std::to_string(m.icc.size()) +
         ", \"exif_bytes\": " + std::to_string(m.exif.size()) + ", \"orientation\": " + std::to_string(m.orientation) +
         ", \"xmp_bytes\": " + std::to_string(m.xmp.size()) + ", \"resolution\": ";
  const Resolution& r = m.resolution;
  out += r.given() ? "{\"unit\": " + json_string(unit_name(r.unit)) + ", \"x\": " + json_number(r.x) +
                         ", \"y\": " + json_number(r.y) + "}"
                   : "null";
  out += ", \"ignored\": [";
  for (std::size_t i = 0; i < m.ignored.size(); ++i) out += (i ? ", " : "") + json_string(m.ignored[i]);
  return out + "]}";
}

// The file's facts, or its error said now, on stderr, after the lines
// printed before it.
Described describe_file(const std::string& path) {
  Described d{path, std::nullopt, ""};
  std::string message;
  try {
    d.info = read_image_info(path);
    return d;
  } catch (const Error& e) {
    std::fflush(stdout);
    print_error(e);
    message = e.what();
  } catch (const std::bad_alloc&) {
    message = input_label(path) + ": out of memory";
    std::fflush(stdout);
    print_message(message);
  }
  d.error = file_failure(input_label(path), message).reason;
  return d;
}

}  // namespace

InfoCli::InfoCli(CLI::App& parent) {
  sub_ = parent.add_subcommand("info", "Print each image's format, size, channels, depth, frames and metadata, read "
                                       "from its headers without decoding its pixels");
  sub_->footer("Exit status: 0 every file read; 1 a file could not be read, named on stderr, the others still "
               "printed; 2 bad command line.\nExamples:\n  gpuimg info photo.jpg\n  gpuimg info shots/*.png --json");
  sub_->add_option("files", cmd_.files, "The images ('-': stdin)")->type_name("FILE")->required();
  sub_->add_flag("--json", cmd_.json, "Print one JSON document (schema gpuimg-info/1): an array of one object a file");
}

int run_info(const InfoCommand& cmd) {
  // Each file's metadata is let go once its line or object is made.
  std::string json;
  bool failed = false;
  for (const std::string& path : cmd.files) {
    const Described d = describe_file(path);
    failed = failed || !d.info;
    if (cmd.json)
      json += (json.empty() ? "[\n  " : ",\n  ") + json_object(d);
    else if (d.info)
      std::cout << text_line(path, *d.info);
  }
  if (cmd.json) std::cout << json << "\n]\n";
  return static_cast<int>(failed ? ExitCode::failure : ExitCode::ok);
}

}  // namespace gpuimg
