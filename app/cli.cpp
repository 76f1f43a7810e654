#include "cli.hpp"

#include <charconv>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "compare_command.hpp"
#include "error.hpp"
#include "golden_command.hpp"
#include "op_options.hpp"

namespace gpuimg {
namespace {

constexpr const char* kHelpHint = " (see gpuimg --help)";

std::string version_text() {
  std::string text = std::string("gpuimg ") + GPUIMG_VERSION;
#if GPUIMG_WITH_CUDA
  text += " (CUDA backend";
#else
  text += " (no CUDA backend";
#endif
  return text + "; " + codec_versions() + ")";
}

const char* kFooter =
    "Operations run in the order given and may repeat. The output's format follows its extension.\n"
    "Exit status: 0 success, 1 an input or output file failed, 2 bad command line, 3 GPU error.\n"
    "compare and golden exit 0 same, 1 different, 2 error instead (see gpuimg compare --help).\n"
    "Examples:\n"
    "  gpuimg in.png --blur 3 --invert out.png\n"
    "  gpuimg photo.jpg --sharpen 0.8 --blur 1 --sharpen 0.5 result.tif\n"
    "  gpuimg compare expected.png actual.png --max-diff 1 --diff diff.png\n"
    "  gpuimg golden check tests/golden.txt";

// One line for a CLI11 parse error, in gpuimg's own words where CLI11's are
// unclear. `subcommand`: the one being parsed, or empty.
std::string usage_message(const CLI::ParseError& e, const std::string& subcommand) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    std::string what = e.what();
    const auto colon = what.find(": ");
    const std::string arg = colon == std::string::npos ? what : what.substr(colon + 2);
    if (!arg.empty() && arg[0] == '-') return "unknown option '" + arg + "'";
    if (!subcommand.empty()) return subcommand + ": unexpected argument '" + arg + "'";
    return "unexpected argument '" + arg + "': give one INPUT and one OUTPUT";
  }
  const std::string what = e.what();
  const auto override_at = what.find(" was given a disallowed flag override");
  if (override_at != std::string::npos) return "--" + what.substr(0, override_at) + " takes no value";
  return what;
}

int parse_quality(const std::string& text) {
  int v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || v < 1 || v > 100)
    throw UsageError("--quality: must be an integer from 1 to 100, got '" + text + "'");
  return v;
}

}  // namespace

std::uint64_t parse_max_pixels(const std::string& text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || v == 0)
    throw UsageError("--max-pixels: must be a positive integer, got '" + text + "'");
  return v;
}

DeviceChoice parse_device(const std::string& text) {
  if (text == "auto") return DeviceChoice::automatic;
  if (text == "cuda") return DeviceChoice::cuda;
  if (text == "cpu") return DeviceChoice::cpu;
  throw UsageError("--device: must be auto, cuda or cpu, got '" + text + "'");
}

std::string op_table() {
  std::ostringstream out;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    std::string head = std::string("--") + Op::name;
    for (const ParamSpec& p : Op::params)
      head += std::string(" ") + p.name + " (" + short_number(p.min) + ".." + short_number(p.max) + ")";
    out << head << std::string(head.size() < 24 ? 24 - head.size() : 1, ' ') << Op::summary << "\n";
  });
  return out.str();
}

ParseResult parse_command_line(int argc, const char* const* argv) {
  CLI::App app{"gpuimg: fast, bit-exact image processing on the GPU or CPU.\n"
               "Usage: gpuimg INPUT [OPERATION ...] OUTPUT\n"
               "       gpuimg compare EXPECTED ACTUAL [LIMITS] [--diff FILE] [--json]\n"
               "       gpuimg golden check|update MANIFEST",
               "gpuimg"};
  app.footer(kFooter);
  app.set_version_flag("--version", version_text());

  ParseResult result;
  Command& cmd = result.command;
  std::string device = "auto", max_pixels, quality;
  bool list_ops = false;
  app.add_option("input", cmd.input, "Image to read (PNG, JPEG, TIFF, WebP, BMP, PNM, TGA, PSD, GIF)");
  app.add_option("output", cmd.output, "Image to write; its extension picks the format");
  app.add_option("--device", device, "Where to run: auto (the GPU when usable, else the CPU), cuda or cpu")
      ->default_str("auto");
  app.add_option("--max-pixels", max_pixels, "Refuse inputs with more pixels than this (read from the header)")
      ->default_str(std::to_string(ReadOptions{}.max_pixels));
  app.add_option("--quality", quality, "JPEG quality, 1 to 100")->default_str(std::to_string(WriteOptions{}.jpeg_quality));
  app.add_flag("-v,--verbose", cmd.verbose, "Print the plan and where the time went, on stderr");
  app.add_flag("--list-ops", list_ops, "List the operations and exit");

  const OpOptions op_options = add_op_options(app, "Operations (in the order given; any may repeat)");
  // Subcommands; an INPUT named like one is written ./compare.
  app.require_subcommand(0, 1);
  CompareCli compare(app);
  GoldenCli golden(app);

  // Where a usage error points the user.
  const auto hint = [&] {
    if (compare.chosen()) return std::string(" (see gpuimg compare --help)");
    return std::string(golden.chosen() ? " (see gpuimg golden --help)" : kHelpHint);
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    result.exit_code = app.exit(e);
    return result;
  } catch (const CLI::ParseError& e) {
    const std::string sub = compare.chosen() ? "compare" : golden.chosen() ? "golden" : "";
    std::cerr << "gpuimg: " << usage_message(e, sub) << hint() << "\n";
    result.exit_code = static_cast<int>(ExitCode::usage);
    return result;
  }

  try {
    if (list_ops) {
      std::cout << op_table();
      return result;
    }
    cmd.device = parse_device(device);
    if (!max_pixels.empty()) cmd.read.max_pixels = parse_max_pixels(max_pixels);
    if (!quality.empty()) cmd.write.jpeg_quality = parse_quality(quality);

    if (compare.chosen() || golden.chosen()) {
      // CLI11 hands a subcommand's surplus words and options back to the main command.
      if (!cmd.input.empty() || !pipeline_in_order(app, op_options).empty() || cmd.verbose)
        throw UsageError(std::string(compare.chosen() ? "compare" : "golden") +
                         ": takes no operations, -v or images of the processing command");
      if (compare.chosen()) result.compare = compare.command();
      if (golden.chosen()) result.golden = golden.command();
      return result;
    }
    cmd.pipeline = pipeline_in_order(app, op_options);
    // After the ops: in "gpuimg in.png --blur out.png" the clearer complaint
    // is that --blur got 'out.png' as its radius.
    if (cmd.input.empty() || cmd.output.empty())
      throw UsageError(cmd.input.empty() ? "missing INPUT and OUTPUT" : "missing OUTPUT");
  } catch (const UsageError& e) {
    std::cerr << "gpuimg: " << e.what() << hint() << "\n";
    result.exit_code = static_cast<int>(ExitCode::usage);
    return result;
  }
  result.run = true;
  return result;
}

}  // namespace gpuimg
