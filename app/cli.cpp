#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <thread>
#include <sstream>
#include <string_view>
#include <utility>

#include <CLI/CLI.hpp>

#include "ascii_case.hpp"
#include "compare_command.hpp"
#include "completions.hpp"
#include "error.hpp"
#include "file_util.hpp"
#include "golden_command.hpp"
#include "info_command.hpp"
#include "joined.hpp"
#include "man_page.hpp"
#include "message_line.hpp"
#include "near_miss.hpp"
#include "number_text.hpp"
#include "op_options.hpp"
#include "output_formats.hpp"
#include "report_errors.hpp"
#include "sniff.hpp"

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
    "Operations run in the order given and may repeat. The output's format follows its extension, or --format.\n"
    "INPUT '-' reads stdin; OUTPUT '-' (with --format) or EXT:- (png:-) writes stdout; EXT:FILE writes FILE\n"
    "in that format; a FIFO or device is written in place.\n"
    "Batch: several INPUTs, an output FOLDER (a path ending in '/', or an existing directory not named\n"
    "like an image) or --files-from. Folders are searched for image extensions, recursively unless\n"
    "--no-recursive; outputs mirror the inputs' relative paths inside FOLDER. A failed file is named on\n"
    "its own line and the batch goes on; a summary ends the run. Ctrl-C stops it and exits 130.\n"
    "Exit status: 0 success, 1 an input or output file failed, 2 bad command line, 3 GPU error.\n"
    "compare and golden exit 0 same, 1 different, 2 error instead (see gpuimg compare --help).\n"
    "Examples:\n"
    "  gpuimg in.png --blur 3 --invert out.png\n"
    "  gpuimg photo.jpg --sharpen 0.8 --blur 1 --sharpen 0.5 result.tif\n"
    "  cat in.jpg | gpuimg - --blur 2 png:- > out.png\n"
    "  gpuimg photos/ --blur 2 out/ --format jpg --quality 90 --skip-existing\n"
    "  find . -name '*.png' | gpuimg --files-from - --invert out/\n"
    "  gpuimg info photo.jpg\n"
    "  gpuimg compare expected.png actual.png --max-diff 1 --diff diff.png\n"
    "  gpuimg golden check tests/golden.txt";

// "--blur R (1..4096)": the operation's flag and what it takes. Optional
// values nest, as in --help's "S[,A[,T]]": a later one needs the ones
// before it.
template <class Op> std::string op_form() {
  std::string form = std::string("--") + Op::name, closing;
  for (const ParamSpec& p : Op::params) {
    std::string brief = param_brief(p);
    if (p.joined && p.optional) {
      brief.pop_back();
      closing += ']';
    }
    form += brief;
  }
  return form + closing;
}

// ImageMagick's name for a gpuimg operation, where the two differ (the
// others share their names: -resize, -median, ...), and what differs in
// meaning or in how the value is written, where anything does: the
// message for -normalize should not promise ImageMagick's bytes.
struct MagickWord {
  const char* theirs;
  const char* ours;
  const char* note;
};
constexpr const char* kExactSize =
    "; WxH is an exact size here (ImageMagick's WxH!); 'WxH>' fits a larger image inside the box";
constexpr MagickWord kImageMagickNames[] = {
    {"negate", "invert", ""},
    {"gaussian-blur", "gaussian", "; -gaussian-blur 0xS is --gaussian S"},
    {"blur", "gaussian", "; -blur 0xS is --gaussian S (gpuimg's --blur R is a box)"},
    {"level", "levels", "; -level 10%,90% is --levels 10%,90% (B and W are fractions or percentages, not levels)"},
    {"auto-level", "normalize", ", which stretches each channel on its own, as -channel RGB -auto-level does"},
    {"normalize", "normalize",
     ", which stretches each channel's own full range as -channel RGB -auto-level does, without -normalize's "
     "clipping of the darkest 2% and brightest 1%"},
    {"colorspace", "grayscale", " for -colorspace Gray, by another formula: Rec. 601 luma, as -grayscale Rec601Luma"},
    {"threshold", "threshold",
     ", each colour channel on its own as -channel RGB -threshold, where plain -threshold compares the "
     "intensity; T is a fraction or percentage"},
    {"sharpen", "unsharp", "; -sharpen 0xS is closest to --unsharp S (gpuimg's --sharpen F is a 3x3 Laplacian)"},
    {"unsharp", "unsharp", "; -unsharp 0xS+A+T is --unsharp S,A,T/2 (its threshold tests twice the difference)"},
    {"median", "median", "; -median N, an NxN window, is --median R with N = 2R + 1"},
    {"extract", "crop", ""},
    {"morphology", "convolve", ""},
    {"sample", "resize", " with :nearest (-sample 50% is --resize 50%:nearest)"},
    {"scale", "resize", " with :box (-scale 50% is --resize 50%:box)"},
    {"thumbnail", "resize", kExactSize},
    {"resize", "resize", kExactSize},
    {"fx", "map", "; -fx's u, i and j are v, x and y"},
};

// ImageMagick's settings with no option of that name here, and what does
// their job: for the processing command (`command` empty) or a subcommand.
struct MagickSetting {
  const char* command;
  const char* theirs;
  const char* here;
};
constexpr MagickSetting kImageMagickSettings[] = {
    {"", "filter", "a filter is --resize's suffix, as in --resize 50%:lanczos3 (nearest, box, linear, cubic, lanczos3)"},
    {"", "auto-orient", "gpuimg turns an image by its EXIF orientation unless --no-auto-orient"},
    {"", "contrast-stretch",
     "no counterpart; --normalize stretches each channel's full range, --levels B,W the range given"},
    {"compare", "metric",
     "compare prints every metric (ImageMagick's AE is its 'differing' pixels); a limit such as --max-differing N or "
     "--min-psnr DB fails it"},
    {"compare", "fuzz", "--threshold T counts a pixel equal within a colour distance, --max-diff N bounds any sample's"},
};

std::optional<std::string> imagemagick_setting(const std::string& option, const std::string& command) {
  if (option.size() < 3 || option[0] != '-' || option[1] == '-') return std::nullopt;
  for (const MagickSetting& m : kImageMagickSettings)
    if (command == m.command && option.compare(1, std::string::npos, m.theirs) == 0)
      return "ImageMagick's " + option + ": " + m.here;
  return std::nullopt;
}

// Other tools' names and other spellings of an operation: --negate, --grey
// and -grey get "did you mean --invert?" (--grayscale?), as a slip would
// (-negate, ImageMagick's own, gets imagemagick_op's message first).
// A horizontal flip is --flop, which the nearest name, --flip, is not.
constexpr std::pair<const char*, const char*> kOtherSpellings[] = {
    {"grey", "grayscale"},       {"greyscale", "grayscale"},   {"gray", "grayscale"},
    {"normalise", "normalize"},  {"brightness-contrast", "linear"}, {"brightness", "linear"},
    {"contrast", "linear"},      {"negative", "invert"},       {"mirror", "flop"},
    {"hflip", "flop"},           {"fliph", "flop"},            {"flip-h", "flop"},
    {"flip-horizontal", "flop"}, {"vflip", "flip"},            {"flipv", "flip"},
    {"flip-v", "flip"},          {"flip-vertical", "flip"},    {"unsharpen", "unsharp"},
    {"unsharp-mask", "unsharp"}, {"usm", "unsharp"},           {"box-blur", "blur"},
    {"threads", "jobs"},         {"expr", "map"},              {"expression", "map"},
    {"kernel", "convolve"},
};

std::optional<std::string> other_spelling(const std::string& word) {
  const std::size_t dashes = word.compare(0, 2, "--") == 0 ? 2 : word.compare(0, 1, "-") == 0 ? 1 : 0;
  if (dashes == 0) return std::nullopt;
  const std::string name = ascii_lower(word.substr(dashes));
  for (const MagickWord& m : kImageMagickNames)
    if (name == m.theirs && name != m.ours) return std::string("--") + m.ours;
  for (const auto& [theirs, ours] : kOtherSpellings)
    if (name == theirs) return std::string("--") + ours;
  return std::nullopt;
}

// The operation's form as --list-ops shows it ("--blur R (1..4096)"), for
// an ImageMagick-style word such as -blur or -negate; nullopt for others.
std::optional<std::string> imagemagick_op(const std::string& word) {
  if (word.size() < 3 || word[0] != '-' || word[1] == '-') return std::nullopt;
  std::string name = word.substr(1), note;
  for (const MagickWord& m : kImageMagickNames)
    if (name == m.theirs) {
      name = m.ours, note = m.note;
      break;
    }
  std::optional<std::string> form;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    if (name == Op::name) form = op_form<Op>() + note;
  });
  return form;
}

// Whether a word of the command line is an option of `app` that takes its
// value as the next word (--blur 3, not --blur=3 or --invert).
bool takes_next_word(const CLI::App& app, const std::string& word) {
  if (word.size() < 2 || word[0] != '-' || word.find('=') != std::string::npos) return false;
  const CLI::Option* o = app.get_option_no_throw(word);
  return o && o->get_items_expected_max() > 0;
}

// A subcommand's name counts only before any INPUT: "gpuimg photos/
// --invert report" writes into the folder report, where CLI11 alone takes
// the name for the subcommand wherever it stands. Options' values, by what
// each takes, are no INPUT (gpuimg --device cpu compare ...).
void subcommands_first(CLI::App& app, int argc, const char* const* argv) {
  const std::vector<CLI::App*> subs = app.get_subcommands([](CLI::App*) { return true; });
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.size() > 1 && word[0] == '-') {
      if (takes_next_word(app, word)) ++i;
      continue;
    }
    if (std::none_of(subs.begin(), subs.end(), [&](CLI::App* sub) { return sub->check_name(word); }))
      for (CLI::App* sub : subs) sub->disabled();
    return;
  }
}

// The subcommands parsed, innermost last: {golden, check}.
std::vector<const CLI::App*> parsed_chain(const CLI::App& app) {
  std::vector<const CLI::App*> chain;
  for (const CLI::App* at = &app; !at->get_subcommands().empty();) chain.push_back(at = at->get_subcommands().front());
  return chain;
}

// "golden check" for that subcommand; "" for the processing command.
std::string command_words(const CLI::App& command) {
  std::string path;
  for (const CLI::App* at = &command; at->get_parent(); at = at->get_parent())
    path = at->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

// The words of the subcommands parsed.
std::string command_path(const CLI::App& app) {
  const std::vector<const CLI::App*> chain = parsed_chain(app);
  return chain.empty() ? "" : command_words(*chain.back());
}

// Where a usage error about `path` ("golden check") points the user.
std::string help_hint(const std::string& path) {
  return path.empty() ? std::string(kHelpHint) : " (see gpuimg " + path + " --help)";
}

// The subcommand of `app` that `word` names, or null.
const CLI::App* subcommand_named(const CLI::App& app, const std::string& word) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    if (sub->check_name(word)) return sub;
  return nullptr;
}

// The subcommands `app` takes, by name.
std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  return names;
}

// What a subcommand lacks, as CLI11's RequiredError leaves it unsaid
// ("A subcommand is required", "expected is required"): the subcommands it
// takes, or the arguments not given, by their names in --help.
std::optional<std::string> missing_words(const CLI::App& app, int argc, const char* const* argv) {
  const std::vector<const CLI::App*> chain = parsed_chain(app);
  if (chain.empty()) return std::nullopt;
  const CLI::App& inner = *chain.back();
  const std::vector<std::string> names = subcommand_names(inner);
  if (!names.empty() && inner.get_subcommands().empty()) {
    // The word typed where a subcommand belongs: after the last one parsed.
    std::string typed;
    for (int i = 1; i + 1 < argc; ++i)
      if (argv[i] == inner.get_name() && argv[i + 1][0] != '-') typed = argv[i + 1];
    if (typed.empty()) return "give a subcommand: " + joined(names, ", ", " or ");
    const std::optional<std::string> near = near_miss(typed, names);
    return "unknown subcommand '" + typed + "'; " + (near ? "did you mean " + *near + "?" : "give " + joined(names, ", ", " or "));
  }
  std::vector<std::string> absent;
  for (const CLI::Option* o : inner.get_options())
    if (o->get_positional() && o->get_required() && o->count() == 0) {
      std::string name = o->get_name();
      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
      absent.push_back(name);
    }
  if (absent.empty()) return std::nullopt;
  return "missing " + joined(absent, ", ", " and ");
}

// The words CLI11 holds as positionals or leftovers, in every subcommand.
void stored_words(const CLI::App& app, std::vector<std::string>& out) {
  for (const CLI::Option* o : app.get_options())
    if (o->get_positional()) out.insert(out.end(), o->results().begin(), o->results().end());
  const std::vector<std::string> left = app.remaining();
  out.insert(out.end(), left.begin(), left.end());
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) stored_words(*sub, out);
}

// CLI11 reads a word of short flags a letter at a time and hands whatever
// follows a flag back as a word of its own, behind a '-' no one typed: -v3
// becomes -v and "-3", taken for a file, and -v=3 becomes -v and "-=3".
// The refusal of the word typed, where a stored word is one of those. A
// rest that starts with a letter is no value but a misspelt option
// (ImageMagick's -quality, read as -q and "-uality"): usage_message names it.
std::optional<std::string> flag_given_a_value(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> stored;
  stored_words(app, stored);
  const std::vector<std::string> typed(argv + 1, argv + argc);
  for (const std::string& w : stored) {
    if (w.size() < 2 || w[0] != '-' || std::isalpha(static_cast<unsigned char>(w[1])) ||
        std::find(typed.begin(), typed.end(), w) != typed.end())
      continue;
    const std::string rest = w.substr(1);
    for (const std::string& t : typed)
      if (t.size() > w.size() && t[0] == '-' && t[1] != '-' && t.compare(t.size() - rest.size(), rest.size(), rest) == 0) {
        const std::string flag = "-" + std::string(1, t[t.size() - w.size()]);
        // gpuimg has one level of detail: a count of -v would promise more.
        return t + ": " + flag + " takes no value" + (flag == "-v" ? " (-v has one level; -vv is the same as -v)" : "");
      }
  }
  return std::nullopt;
}

// One line for a CLI11 parse error, in gpuimg's own words where CLI11's are
// unclear. `subcommand`: the one being parsed, or empty. CLI11 names the
// leftover words in reverse order; they are named here in the order given,
// an unknown option first, with the nearest known option when one is close.
std::string usage_message(const CLI::ParseError& e, const std::string& subcommand, const CLI::App& app, int argc,
                          const char* const* argv) {
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    const std::vector<std::string> left = app.remaining(true);
    std::vector<std::string> in_order;
    for (int i = 1; i < argc; ++i)
      if (std::find(left.begin(), left.end(), argv[i]) != left.end()) in_order.push_back(argv[i]);
    const auto unknown = [&](const std::string& w) {
      const std::string option = w.substr(0, w.find('='));
      const std::optional<std::string> magick = subcommand.empty() ? imagemagick_op(option) : std::nullopt;
      if (magick) return "unknown option '" + option + "': ImageMagick's " + option + " is gpuimg's " + *magick;
      if (const std::optional<std::string> setting = imagemagick_setting(option, subcommand))
        return "unknown option '" + option + "': " + *setting;
      if (subcommand.empty() && (option == "-o" || option == "--output"))
        return "unknown option '" + option + "': OUTPUT is the last word, as in gpuimg INPUT [OPERATION ...] OUTPUT";
      std::optional<std::string> near = subcommand.empty() ? other_spelling(option) : std::nullopt;
      if (!near) near = near_miss(option, known_options(app));
      return "unknown option '" + option + "'" + (near ? "; did you mean " + *near + "?" : "");
    };
    for (const std::string& w : in_order)
      if (w.size() > 1 && w[0] == '-') return unknown(w);
    // CLI11 reads "-quality" as the flag -q and leaves the rest, a word no
    // one typed: the word typed is the unknown option.
    if (in_order.empty())
      for (int i = 1; i < argc; ++i)
        if (const std::string w = argv[i]; w.size() > 2 && w[0] == '-' && std::isalpha(static_cast<unsigned char>(w[1])))
          return unknown(w);
    std::string arg;
    for (const std::string& w : in_order) arg += (arg.empty() ? "" : " ") + w;
    if (!subcommand.empty()) return subcommand + ": unexpected argument '" + arg + "'";
    return "unexpected argument '" + arg + "': give one INPUT and one OUTPUT";
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) && !subcommand.empty()) {
    if (const std::optional<std::string> missing = missing_words(app, argc, argv)) return subcommand + ": " + *missing;
  }
  return parse_error_text(e);
}

// The processing command's usage lines are in its description, in words
// CLI11's generated line ("gpuimg [OPTIONS] [paths...] [SUBCOMMAND]")
// cannot say; that line is left out rather than shown as a second usage.
class UsageInDescription : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App* app, std::string name) const override {
    return app->get_parent() ? CLI::Formatter::make_usage(app, std::move(name)) : "";
  }
};

bool writable(const std::string& ext) {
  const std::vector<std::string> all = writable_extensions();
  return std::find(all.begin(), all.end(), ext) != all.end();
}

// "png, jpg, jpeg, ...", for the messages that name them.
std::string writable_list() { return joined(writable_extensions(), ", "); }

std::string parse_format(const std::string& text) {
  std::string_view name = text;
  if (!name.empty() && name[0] == '.') name.remove_prefix(1);
  const std::string ext = ascii_lower(name);
  if (!writable(ext))
    throw UsageError("--format: '" + text + "' is no format gpuimg writes" + writable_hint(ext) + " (" +
                     writable_list() + ")");
  return ext;
}

int parse_int_option(const char* option, const std::string& text, int lo, int hi) {
  return static_cast<int>(parse_number(std::string(option) + ":", text, NumberForm::integer, lo, hi));
}

// Whether OUTPUT names a folder by itself: a trailing '/', or an existing
// directory whose name is not an image file's (`in.png out.png` where
// out.png is a directory stays the one-image form, and fails).
bool names_folder(const std::string& path) {
  if (!path.empty() && path.back() == '/') return true;
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return false;
  return !image_extension(lower_extension(path));
}

// The operation a word of the command line names ("--blur": "blur"), by
// the options add_op_options made; empty for any other word.
std::string op_named(const CLI::App& app, const OpOptions& ops, const std::string& word) {
  const auto it = ops.find(word.compare(0, 2, "--") == 0 ? app.get_option_no_throw(word) : nullptr);
  return it == ops.end() ? "" : it->second;
}

// Whether operation `op` takes `value` as its one word.
bool accepts_value(const std::string& op, const std::string& value) {
  try {
    parse_stage(op, {value});
    return true;
  } catch (const Error&) {
    return false;
  }
}

// "--map v *0.5": a value with a space, its quotes lost, leaves a word
// after it that the command line takes for an INPUT. Where OUTPUT is no
// folder, so that the batch would blame it, a word right after an
// option's value that is no file and has no image's extension is named.
void refuse_unquoted_value(const CLI::App& app, const OpOptions& ops, int argc, const char* const* argv,
                           const std::string& output) {
  if (std::error_code e; names_folder(output) || std::filesystem::is_directory(output, e)) return;
  const auto stray = [](const std::string& word) {
    std::error_code e;
    return !word.empty() && word[0] != '-' && !std::filesystem::exists(word, e) &&
           !image_extension(lower_extension(word));
  };
  for (int i = 2; i < argc; ++i) {
    const std::string option = argv[i - 1], word = argv[i];
    // "--invert 1": a number after an operation that takes no value.
    if (!op_named(app, ops, option).empty() && !takes_next_word(app, option) && stray(word) &&
        (std::isdigit(static_cast<unsigned char>(word[0])) || word[0] == '.'))
      throw UsageError("unexpected argument '" + word + "' after " + option + ": " + option + " takes no value");
  }
  for (int i = 3; i < argc; ++i) {
    const std::string option = argv[i - 2], value = argv[i - 1], word = argv[i];
    if (value.empty() || value[0] == '-' || !takes_next_word(app, option) || !stray(word)) continue;
    const std::string after = "unexpected argument '" + word + "' after " + option + " " + value;
    // The value with the words after it, up to OUTPUT or the next option:
    // what "$expr" unquoted would have been.
    std::string joined = value;
    for (int j = i; j < argc - 1 && argv[j][0] != '-'; ++j) joined += std::string(" ") + argv[j];
    const auto quotes = [&] {
      return UsageError(after + ": a value with spaces needs quotes (" + option + " '" + joined + "')");
    };
    // An operation's value is known to take spaces or not; other options'
    // (a file name, --report my report.json) may.
    if (const std::string op = op_named(app, ops, option); op.empty() || accepts_value(op, joined)) throw quotes();
    // ImageMagick's settings that start with '+' (+repage after -crop).
    if (word[0] == '+' && word.size() > 1 && std::isalpha(static_cast<unsigned char>(word[1])))
      throw UsageError(after + ": ImageMagick's " + word + " has no counterpart here" +
                       (word == "+repage" ? " (an image keeps no virtual canvas to reset)" : "") + "; drop it");
    throw UsageError(after + ": " + option + " takes one value");
  }
}

// `--format jpg out.png` (or jpg:out.png) writes what it says, into a name every
// later reader will take for another format: said, not refused, since
// the caller may mean it.
void warn_if_extension_differs(const std::string& path, const std::string& format) {
  const OutputFormat* named = output_format_for(lower_extension(path));
  const OutputFormat* given = output_format_for(format);
  if (named && given && named->format != given->format)
    print_message("warning: writing " + std::string(format_name(given->format)) + " into " + path +
                  ", whose extension says " + format_name(named->format) + " (-q: no warnings)");
}

// The options that only a batch takes, as the user sees them.
struct BatchFlags {
  std::string files_from;
  std::optional<std::string> files_base, jobs, shard, devices;  // given empty is refused, not taken as absent
  bool no_recursive = false, skip_existing = false, fail_fast = false, quiet = false, progress = false;

  std::string first_given() const {
    if (!files_from.empty()) return "--files-from";
    if (files_base) return "--files-base";
    if (jobs) return "--jobs";
    if (shard) return "--shard";
    if (devices) return "--devices";
    if (no_recursive) return "--no-recursive";
    if (skip_existing) return "--skip-existing";
    if (fail_fast) return "--fail-fast";
    return progress ? "--progress" : "";
  }
};

// ImageMagick's FMT:FILE ("png:out.jpg", "png:-"): the format name and the
// file; nullopt where what stands before the first ':' is not the name of
// a format gpuimg reads or writes (a file named so is ./png:out.jpg).
struct Prefixed {
  std::string format, file;
};
std::optional<Prefixed> format_prefix(const std::string& path) {
  const std::size_t colon = path.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == path.size()) return std::nullopt;
  const std::string name = ascii_lower(std::string_view(path).substr(0, colon));
  if (!image_extension(name)) return std::nullopt;
  return Prefixed{name, path.substr(colon + 1)};
}

// An input's bytes say its format: the prefix only names the file, always,
// as an output's does. A file that is really named so is ./png:x: were an
// existing png:in.png read as itself, `gpuimg png:in.png --invert in.png`
// would write over in.png, or refuse to, by what else lies in the folder.
std::string input_named(const std::string& path) {
  const std::optional<Prefixed> in = format_prefix(path);
  return in ? in->file : path;
}

// Whether two writable extensions write the same files: jpg and jpeg, tif
// and tiff; not pgm and ppm.
bool same_output(const std::string& a, const std::string& b) {
  const OutputFormat* x = output_format_for(a);
  const OutputFormat* y = output_format_for(b);
  return x && y && x->format == y->format && x->channels == y->channels;
}

// OUTPUT's FMT: prefix, where it has one, moved into `format`, which must
// not name another. A word before a ':' that names no format is refused
// as a mistyped one ("pgn:out.png"): a file named so is ./pgn:out.png.
void take_output_prefix(std::string& output, std::string& format) {
  const std::optional<Prefixed> out = format_prefix(output);
  const std::size_t colon = output.find(':');
  const auto alnum = [](unsigned char c) { return std::isalnum(c) != 0; };
  if (!out && colon != std::string::npos && colon + 1 == output.size())
    if (const std::string name = ascii_lower(std::string_view(output).substr(0, colon)); image_extension(name))
      throw UsageError(writable(name) ? output + ": no file after the format (" + output + "- writes to stdout)"
                                      : output + ": gpuimg reads " + name + " but does not write it");
  // ImageMagick's pseudo-formats as OUTPUT.
  if (const std::string lower = ascii_lower(output); lower == "null:" || lower == "info:")
    throw UsageError(output + " is ImageMagick's pseudo-format that " +
                     (lower == "null:" ? "throws the image away; here write png:/dev/null"
                                       : "describes the image; here gpuimg info FILE"));
  if (!out && colon != std::string::npos && colon > 0 &&
      std::all_of(output.begin(), output.begin() + static_cast<std::ptrdiff_t>(colon), alnum))
    throw UsageError(output + ": '" + output.substr(0, colon) + "' is no format gpuimg writes" +
                     writable_hint(output.substr(0, colon)) + " (" + writable_list() + "; a file named so is ./" +
                     output + ")");
  if (!out) return;
  if (!writable(out->format)) throw UsageError(output + ": gpuimg reads " + out->format + " but does not write it");
  if (!format.empty() && !same_output(parse_format(format), out->format))
    throw UsageError("--format " + format + " and OUTPUT " + output + " name different formats");
  format = out->format;
  output = out->file;
}

bool is_stream(const std::string& path) {
  const std::optional<Prefixed> p = format_prefix(path);
  return path == "-" || (p && p->file == "-");
}

// Whether the batch would write a file named on its command line over itself.
bool names_itself(const std::string& input, const BatchCommand& batch) {
  try {
    return same_file(input, named_file_output(input, batch.output_dir, batch.format));
  } catch (const OutputError&) {
    return false;  // a name no output can have: the batch reports it with the file
  }
}

// compare's paths with their format prefixes taken: stdin holds one image,
// and stdout, where compare prints its report, takes the difference picture
// only with -q.
CompareCommand compare_command(CompareCommand c) {
  c.expected = input_named(c.expected);
  c.actual = input_named(c.actual);
  if (!c.scope.mask.empty()) c.scope.mask = input_named(c.scope.mask);
  if ((c.expected == "-") + (c.actual == "-") + (c.scope.mask == "-") > 1)
    throw UsageError("compare: stdin holds one image: give - for one of EXPECTED, ACTUAL and --mask at most");
  if (c.diff.empty()) return c;
  std::string format;
  take_output_prefix(c.diff, format);
  if (c.diff == "-" && format.empty())
    throw UsageError("--diff -: stdout has no extension to choose a format by: give EXT:- (png:-)");
  if (c.diff == "-" && !c.quiet)
    throw UsageError("--diff " + format + ":-: stdout holds compare's report: add -q, or write the picture to a file");
  if (!format.empty()) c.diff_write.format = parse_format(format);
  return c;
}

// info's paths with their format prefixes taken; stdin holds one image.
InfoCommand info_command(InfoCommand c) {
  std::transform(c.files.begin(), c.files.end(), c.files.begin(), input_named);
  if (std::count(c.files.begin(), c.files.end(), "") > 0) throw UsageError("info: empty path given as FILE");
  if (std::count(c.files.begin(), c.files.end(), "-") > 1) throw UsageError("info: stdin holds one image: give - once");
  return c;
}

// stdin and stdout hold one image: a batch's inputs are files, and `-` as
// one would also be the list --files-from reads.
void refuse_streams_in_batch(const std::vector<std::string>& paths) {
  for (const std::string& p : paths)
    if (is_stream(p))
      throw UsageError("'" + p + "': stdin and stdout take one image, not a batch's (a file named - is ./-)");
}

// --quality and --jpeg-subsample set JPEG's alone, --png-level PNG's: said
// once, rather than ignored unsaid, for an output of another format. Empty
// `ext` (a batch keeping its inputs' extensions) says nothing; nor does one
// gpuimg cannot write, which fails. `sets`: "--quality sets JPEG's quality".
void warn_unless_format(const std::string& ext, std::initializer_list<const char*> formats, const std::string& sets) {
  if (ext.empty() || std::any_of(formats.begin(), formats.end(), [&](const char* f) { return ext == f; })) return;
  if (!writable(ext)) return;
  print_message("warning: " + sets + " only; ignored for " + ext + " output (-q: no warnings)");
}

// What a JPEG option given sets, for its warning on another format; empty
// for one not given.
struct EncoderOptionsGiven {
  bool quality = false, subsample = false, png_level = false, depth16 = false;
  void warn_unless_they_apply(const std::string& ext) const {
    if (quality) warn_unless_format(ext, {"jpg", "jpeg", "webp"}, "--quality sets JPEG's and WebP's quality");
    if (subsample) warn_unless_format(ext, {"jpg", "jpeg"}, "--jpeg-subsample sets JPEG's chroma subsampling");
    if (png_level) warn_unless_format(ext, {"png"}, "--png-level sets PNG's compression");
    const OutputFormat* f = output_format_for(ext);
    if (depth16 && f && !f->holds_16bit)
      print_message("warning: --depth 16 sets the samples of PNG, TIFF and PNM only; " + ext +
                    " output holds 8-bit samples (-q: no warnings)");
  }
};

JpegSubsample parse_jpeg_subsample(const std::string& text) {
  if (text == "444") return JpegSubsample::s444;
  if (text == "422") return JpegSubsample::s422;
  if (text == "420") return JpegSubsample::s420;
  throw UsageError("--jpeg-subsample: must be 444, 422 or 420, got '" + text + "'");
}

BatchCommand batch_command(const std::vector<std::string>& paths, const BatchFlags& flags, std::string format,
                           const EncoderOptionsGiven& encoder_given, const Command& cmd) {
  refuse_streams_in_batch(paths);
  BatchCommand batch;
  batch.output_dir = paths.back();
  take_output_prefix(batch.output_dir, format);
  std::error_code ec;
  const bool folder = (!batch.output_dir.empty() && batch.output_dir.back() == '/') ||
                      std::filesystem::is_directory(batch.output_dir, ec);
  if (!folder) {
    if (paths.size() > 2)
      throw UsageError("unexpected argument '" + batch.output_dir +
                       "': give one INPUT and one OUTPUT, or several INPUTs and an output folder "
                       "(an existing directory or a path ending in '/': " + batch.output_dir + "/)");
    throw UsageError(batch.output_dir + ": --files-from writes into a folder: an existing directory or a path ending in '/'");
  }
  std::transform(paths.begin(), paths.end() - 1, std::back_inserter(batch.sources.paths), input_named);
  batch.sources.recursive = !flags.no_recursive;
  batch.files_from = flags.files_from;
  if (flags.files_base) {
    const std::string& base = *flags.files_base;
    if (base.empty()) throw UsageError("--files-base: give a folder (an empty value names none; '.' is the current one)");
    if (std::error_code e; !std::filesystem::is_directory(base, e))
      throw UsageError(base + ": --files-base names a folder, and " +
                       (std::filesystem::exists(base, e) ? "this is not one" : "there is none of that name"));
    batch.sources.listed_base = base;
  }
  if (!format.empty()) batch.format = parse_format(format);
  // Each output would be its own input: one refusal, not one a file.
  for (const std::string& p : batch.sources.paths) {
    std::error_code e;
    if (std::filesystem::is_directory(p, e)) {
      if (batch.format.empty() && same_file(p, batch.output_dir))
        throw UsageError(p + ": is also the output folder, and gpuimg never overwrites its inputs: give another "
                             "OUTPUT folder (or --format, to write files of another kind beside them)");
    } else if (names_itself(p, batch)) {
      throw UsageError(p + ": its output would be the file itself, and gpuimg never overwrites its inputs: give "
                           "another OUTPUT folder" + (batch.format.empty() ? " (or --format)" : " or format"));
    }
  }
  batch.jobs = flags.jobs ? parse_int_option("--jobs", *flags.jobs, 1, 1024)
                         : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (flags.shard) batch.shard = parse_shard(*flags.shard);
  if (flags.devices) {
    if (cmd.device == DeviceChoice::cpu) throw UsageError("--devices: picks GPUs, so not with --device cpu");
    batch.devices = parse_devices(*flags.devices);
  }
  batch.skip_existing = flags.skip_existing;
  batch.fail_fast = flags.fail_fast;
  if (flags.quiet && flags.progress) throw UsageError("--quiet and --progress: give one or the other");
  if (!flags.quiet) encoder_given.warn_unless_they_apply(batch.format);
  batch.progress = flags.quiet ? ProgressMode::never : flags.progress ? ProgressMode::always : ProgressMode::automatic;
  batch.pipeline = cmd.pipeline;
  batch.device = cmd.device;
  batch.verbose = cmd.verbose;
  batch.quiet = flags.quiet;
  batch.read = cmd.read;
  batch.write = cmd.write;
  batch.report = cmd.report;
  return batch;
}

constexpr std::pair<std::string_view, const char*> kUnicodeDashes[] = {
    {"\u2010", "a hyphen (U+2010)"},       {"\u2011", "a hyphen (U+2011)"},
    {"\u2012", "a figure dash (U+2012)"},  {"\u2013", "an en dash (U+2013)"},
    {"\u2014", "an em dash (U+2014)"},     {"\u2015", "a bar (U+2015)"},
    {"\u2212", "a minus sign (U+2212)"},   {"\ufe58", "a small em dash (U+FE58)"},
    {"\ufe63", "a small hyphen (U+FE63)"}, {"\uff0d", "a full-width hyphen (U+FF0D)"}};

// The name of the Unicode dash `word` starts with, taken off it; null
// where it starts with none.
const char* take_unicode_dash(std::string_view& word) {
  for (const auto& [dash, name] : kUnicodeDashes)
    if (word.substr(0, dash.size()) == dash) {
      word.remove_prefix(dash.size());
      return name;
    }
  return nullptr;
}

// The (sub)command the words name before parsing: the subcommands among
// the first words that are not options ("golden check"), else `app`.
const CLI::App& named_command(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* at = &app;
  for (int i = 1; i < argc && argv[i] != std::string_view("--"); ++i) {
    const std::string word = argv[i];
    if (word.size() > 1 && word[0] == '-') {
      if (takes_next_word(*at, word)) ++i;
      continue;
    }
    const CLI::App* sub = subcommand_named(*at, word);
    if (!sub) break;
    at = sub;
  }
  return *at;
}

// An option typed with a dash from pasted text (an en or em dash, a minus
// sign: "—invert" where "--invert" belongs), which would otherwise be read
// as a file, and an unprocessed copy written. Not where a file has that
// name, nor after "--". It runs before parsing: the options are those of
// the command the first words name (named_command), whose help the
// message points to.
std::optional<std::string> typographic_dash(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc && argv[i] != std::string_view("--"); ++i) {
    std::string_view word = argv[i];
    const char* found = nullptr;  // the first Unicode dash, among any run of dashes
    for (;;) {
      if (const char* name = take_unicode_dash(word))
        found = found ? found : name;
      else if (!word.empty() && word.front() == '-')
        word.remove_prefix(1);
      else
        break;
    }
    if (!found) continue;
    const std::string option = "--" + std::string(word.substr(0, word.find('=')));
    const CLI::App& command = named_command(app, argc, argv);
    const std::vector<std::string> options = known_options(command);
    std::error_code e;
    if (std::find(options.begin(), options.end(), option) != options.end() && !std::filesystem::exists(argv[i], e))
      return "'" + std::string(argv[i]) + "' starts with " + found + ", not '--' (pasted text?): did you mean " +
             option + "?" + help_hint(command_words(command));
  }
  return std::nullopt;
}

}  // namespace

std::uint64_t parse_max_pixels(const std::string& text) {
  const UsageError bad("--max-pixels: must be a positive integer (1000000, 1e6) or WxH (16384x16384), got '" + text +
                       "'");
  std::uint64_t pixels = 0;
  const std::size_t x = text.find('x');
  if (x != std::string::npos) {
    const std::optional<std::uint64_t> w = read_integer<std::uint64_t>(std::string_view(text).substr(0, x)),
                                       h = read_integer<std::uint64_t>(std::string_view(text).substr(x + 1));
    if (!w || !h || __builtin_mul_overflow(*w, *h, &pixels)) throw bad;
  } else if (const std::optional<std::uint64_t> v = read_integer<std::uint64_t>(text)) {
    pixels = *v;
  } else {
    // 1e6 and 2.5e5 name whole numbers as exactly as digits do; 1.5 names none.
    const std::optional<double> d = read_decimal(text);
    if (!d || *d != std::floor(*d) || !(*d < 0x1p64)) throw bad;
    pixels = static_cast<std::uint64_t>(*d > 0 ? *d : 0);
  }
  if (pixels == 0) throw bad;
  return pixels;
}

Depth parse_depth(const std::string& text) {
  if (text == "8") return Depth::U8;
  if (text == "16") return Depth::U16;
  throw UsageError("--depth: must be 8 or 16 (bits a sample), got '" + text + "'");
}

DeviceChoice parse_device(const std::string& text) {
  // Any case, as format and filter names are (CPU, CUDA).
  const std::string word = ascii_lower(text);
  if (word == "auto") return DeviceChoice::automatic;
  // "gpu" is what people type for the one GPU backend there is.
  if (word == "cuda" || word == "gpu") return DeviceChoice::cuda;
  if (word == "cpu") return DeviceChoice::cpu;
  throw UsageError("--device: must be auto, cuda (or gpu) or cpu, got '" + text + "'");
}

DeviceSet parse_devices(const std::string& text) {
  DeviceSet set;
  if (text == "all") {
    set.all = true;
    return set;
  }
  const auto bad = [&] { return UsageError("--devices: must be all or GPU numbers such as 0,1, got '" + text + "'"); };
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::optional<int> v = read_integer<int>(std::string_view(text).substr(at, comma - at));
    if (!v || *v < 0) throw bad();
    if (std::find(set.listed.begin(), set.listed.end(), *v) != set.listed.end())
      throw UsageError("--devices: GPU " + std::to_string(*v) + " is listed twice");
    set.listed.push_back(*v);
    if (comma == text.size()) return set;
    at = comma + 1;
  }
}

const char* const kOneTopic = "help: takes one operation or subcommand, as in gpuimg help blur or gpuimg help golden check";

// gpuimg help [WORD [WORD]]: the usage, or one operation's, subcommand's or
// subcommand's own subcommand's help. Throws UsageError for words that name
// none of them.
std::string help_text(const CLI::App& app, const std::vector<std::string>& words) {
  if (words.empty()) return app.help();
  if (words.size() > 2) throw UsageError(kOneTopic);
  std::string word = words[0];
  word.erase(0, word.find_first_not_of('-'));
  if (word == "help" && words.size() == 1)
    return "gpuimg help [OPERATION|SUBCOMMAND [SUBCOMMAND]]\n"
           "  Prints the usage, or the help of one operation (gpuimg help blur), subcommand (gpuimg help compare)\n"
           "  or subcommand of one (gpuimg help golden check), on stdout.\n";
  if (words.size() == 2) {
    const CLI::App* sub = subcommand_named(app, word);
    if (!sub) {
      const std::optional<std::string> near = near_miss(word, subcommand_names(app));
      if (!near) throw UsageError(kOneTopic);
      throw UsageError("help: no subcommand '" + word + "'; did you mean " + *near + "?");
    }
    if (const CLI::App* own = subcommand_named(*sub, words[1])) return own->help(app.get_name() + " " + sub->get_name());
    const std::vector<std::string> names = subcommand_names(*sub);
    if (names.empty())
      throw UsageError("help: " + sub->get_name() + " has no subcommands of its own: gpuimg help " + sub->get_name() +
                       " prints its help");
    const std::optional<std::string> near = near_miss(words[1], names);
    throw UsageError("help: " + sub->get_name() + " has no subcommand '" + words[1] + "'; " +
                     (near ? "did you mean " + *near + "?" : "give " + joined(names, ", ", " or ")));
  }
  std::optional<std::string> text;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    if (word != Op::name) return;
    text = op_form<Op>() + "\n";
    std::istringstream lines(*op_help(word));
    for (std::string line; std::getline(lines, line);) *text += "  " + line + "\n";
  });
  if (text) return *text;
  if (const CLI::App* sub = subcommand_named(app, word)) return sub->help(app.get_name());
  std::vector<std::string> names = subcommand_names(app);
  for_each_op([&](auto tag) { names.push_back(decltype(tag)::type::name); });
  const std::optional<std::string> near = near_miss(word, names);
  throw UsageError("help: no operation or subcommand '" + word + "'" + (near ? "; did you mean " + *near + "?" : ""));
}

std::string op_table() {
  std::ostringstream out;
  for_each_op([&](auto tag) {
    using Op = typename decltype(tag)::type;
    const std::string head = op_form<Op>();
    out << head << std::string(head.size() < 24 ? 24 - head.size() : 1, ' ') << Op::summary << "\n";
  });
  return out.str();
}

ParseResult parse_command_line(int argc, const char* const* argv) {
  CLI::App app{"gpuimg: fast, bit-exact image processing on the GPU or CPU.\n"
               "Usage: gpuimg INPUT [OPERATION ...] OUTPUT\n"
               "       gpuimg INPUT... [OPERATION ...] FOLDER/ [BATCH OPTIONS]\n"
               "       gpuimg --files-from LIST|- [OPERATION ...] FOLDER/ [BATCH OPTIONS]\n"
               "       gpuimg compare EXPECTED ACTUAL [LIMITS] [--diff FILE] [--json]\n"
               "       gpuimg golden check|update MANIFEST [NAME ...]\n"
               "       gpuimg report merge REPORT... [--json]\n"
               "       gpuimg info FILE... [--json]\n"
               "       gpuimg help [OPERATION|SUBCOMMAND [SUBCOMMAND]]",
               "gpuimg"};
  app.footer(kFooter);
  app.formatter(std::make_shared<UsageInDescription>());
  // A setting given twice takes the last, as ImageMagick's do, so that a
  // script may add its defaults before a user's; operations (op_options.cpp)
  // and compare's lists take every one. Subcommands inherit this.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.set_version_flag("--version", version_text());

  ParseResult result;
  Command& cmd = result.command;
  std::string device = "auto";
  std::optional<std::string> max_pixels, quality, jpeg_subsample, png_level, depth, report_file, frame;  // given empty is refused, not taken as absent
  std::string format;
  bool list_ops = false, help_man = false, no_auto_orient = false;
  std::string completion;
  std::vector<std::string> paths;
  BatchFlags flags;
  app.add_option("paths", paths,
                 "INPUT OUTPUT: the image to read (PNG, JPEG, TIFF, WebP, BMP, PNM, TGA, PSD, GIF; '-': stdin) and "
                 "the one to write, whose extension picks the format ('-' or EXT:-: stdout); or INPUT... FOLDER/: "
                 "images and folders of them, and the folder to write into")->type_name("PATH");
  app.add_option("--device", device, "Where to run: auto (one image: the CPU when its pipeline costs less there "
                 "than starting CUDA; otherwise, and for a batch, the GPU when usable, else the CPU), cuda (or gpu) or cpu")
      ->type_name("auto|cuda|cpu")->default_str("auto");
  app.add_option("--max-pixels", max_pixels, "Refuse inputs with more pixels than this (read from the header): a "
                 "number (1e6) or WxH")->type_name("N|WxH")->default_str(std::to_string(ReadOptions{}.max_pixels));
  app.add_option("--frame", frame, "The frame of an animated GIF, PNG or WebP or page of a TIFF to read, from 0 "
                 "(inputs of several are refused without it)")->type_name("N");
  app.add_option("--quality", quality, "JPEG quality, 1 to 100; WebP: lossy at this quality (lossless without it)")->type_name("Q")->default_str(std::to_string(WriteOptions{}.jpeg_quality));
  app.add_option("--jpeg-subsample", jpeg_subsample, "JPEG chroma sampling: 444 keeps colour whole, 422 halves it "
                 "across, 420 across and down")->type_name("444|422|420")->default_str("444 at quality 90 and above, 420 below");
  app.add_option("--png-level", png_level, "PNG: 0 stores uncompressed; 1 to 9, zlib's LZ77 search at that level "
                 "(slower; smaller files for graphics, screenshots, text)")
      ->type_name("L")->default_str("run-length (fast; the smallest files for photos)");
  app.add_option("--depth", depth, "Bits a sample in the output: 8 rounds 16-bit samples as round(v * 255 / 65535), "
                 "16 widens 8-bit ones as v * 257 (PNG, TIFF and PNM hold 16)")
      ->type_name("8|16")->default_str("the image's, where the format holds it");
  app.add_flag("--strip", cmd.write.strip, "Write no ICC profile, EXIF or XMP (by default the input's are kept "
               "wherever the output's format holds them); the resolution stays");
  app.add_flag("--no-auto-orient", no_auto_orient, "Keep the pixels as stored and the EXIF orientation as given "
               "(by default the pixels are turned upright as it says, and it is set to 1)");
  // Flags, not counts: --verbose=3 or -v3 is refused rather than read as
  // a level gpuimg does not have (or, for -v3, as -v and a file "-3").
  app.add_flag("-v,--verbose", cmd.verbose, "Print the plan and where the time went, on stderr; in a batch, the "
               "device and each file as it is written (one level: -vv is -v)")->disable_flag_override();
  app.add_flag("--list-ops", list_ops, "List the operations and exit");
  app.add_option("--report", report_file, "Also write what the run did as JSON (schema gpuimg-report/1: counts, "
                 "each failure, devices, shard, time), for gpuimg report merge")->type_name("FILE");
  // Hidden (no group): the build writes the man page and completions with them.
  app.add_flag("--help-man", help_man, "Print the man page (roff) and exit")->group("");
  app.add_option("--completion", completion, "Print the completion script for bash, zsh or fish and exit")->group("");
  const std::string batch_group = "Batch (several INPUTs, an output FOLDER/, or --files-from)";
  app.add_option("--format", format, "The output's format (png, jpg, ...) instead of its extension's, as '-' "
                 "needs; in a batch, every output's (default: the input's extension, png where gpuimg cannot write "
                 "it)")->type_name("EXT");
  app.add_option("--files-from", flags.files_from, "Also process the files listed in LIST, one a line ('-': stdin), "
                 "written under the same relative paths (absolute ones only inside the current folder or "
                 "--files-base; no '..')")->type_name("LIST")->group(batch_group);
  app.add_option("--files-base", flags.files_base, "The folder --files-from's paths are relative to: relative ones are "
                 "read from it, absolute ones must lie inside it, and outputs mirror their paths below it "
                 "(default: the current folder)")->type_name("DIR")->group(batch_group);
  app.add_option("--jobs", flags.jobs, "Decode and encode threads, and images in flight per stage")
      ->type_name("N")->default_str("hardware threads")->group(batch_group);
  app.add_option("--devices", flags.devices, "Spread the images over these GPUs: all, or numbers such as 0,1 "
                 "(default: GPU 0 alone)")->type_name("all|LIST")->group(batch_group);
  app.add_option("--shard", flags.shard, "K/N: only the Kth of N interleaved shares of the sorted file list, so N "
                 "runs cover every file once")->type_name("K/N")->group(batch_group);
  app.add_flag("--no-recursive", flags.no_recursive, "Only the images directly in each INPUT folder")->group(batch_group);
  app.add_flag("--skip-existing", flags.skip_existing, "Skip files whose output exists (resume a run)")->group(batch_group);
  app.add_flag("--fail-fast", flags.fail_fast, "Stop at the first failed file")->group(batch_group);
  app.add_flag("-q,--quiet", flags.quiet, "No warnings; in a batch, no progress line either")->disable_flag_override();
  app.add_flag("--progress", flags.progress, "A progress line on stderr even when it is not a terminal")
      ->group(batch_group);

  const OpOptions op_options = add_op_options(app, "Operations (in the order given; any may repeat)");
  // Subcommands; an INPUT named like one is written ./compare.
  app.require_subcommand(0, 1);
  CompareCli compare(app);
  GoldenCli golden(app);
  ReportCli report(app);
  InfoCli info(app);

  // Where a usage error points the user.
  const auto hint = [&] { return help_hint(command_path(app)); };
  // help --blur, as git help and man habits type it: the operation's help,
  // where parsing would take --blur for the option itself, missing its
  // value. Other options (help -h, help --version) parse as ever.
  if (std::error_code e; argc == 3 && argv[1] == std::string("help") && argv[2][0] == '-' &&
                         !std::filesystem::exists("help", e)) {
    const std::string word = std::string(argv[2]).erase(0, std::string(argv[2]).find_first_not_of('-'));
    if (!word.empty() && op_help(word)) {
      std::cout << help_text(app, {word});
      return result;
    }
  }
  if (const std::optional<std::string> refused = typographic_dash(app, argc, argv)) {
    print_message(*refused);
    result.exit_code = static_cast<int>(ExitCode::usage);
    return result;
  }
  subcommands_first(app, argc, argv);
  try {
    app.parse(argc, argv);
    if (const std::optional<std::string> refused = flag_given_a_value(app, argc, argv)) {
      print_message(*refused + hint());
      result.exit_code = static_cast<int>(ExitCode::usage);
      return result;
    }
  } catch (const CLI::Success& e) {  // --help, --version
    result.exit_code = app.exit(e);
    return result;
  } catch (const CLI::ParseError& e) {
    const std::string sub = command_path(app);
    const std::optional<std::string> refused = flag_given_a_value(app, argc, argv);
    print_message((refused ? *refused : usage_message(e, sub, app, argc, argv)) + hint());
    result.exit_code = static_cast<int>(ExitCode::usage);
    return result;
  }

  try {
    if (list_ops) {
      std::cout << op_table();
      return result;
    }
    if (help_man) {
      std::cout << man_page(app);
      return result;
    }
    if (!completion.empty()) {
      const std::optional<std::string> script = completion_script(app, completion);
      if (!script) throw UsageError("--completion: must be bash, zsh or fish, got '" + completion + "'");
      std::cout << *script;
      return result;
    }
    cmd.device = parse_device(device);
    // An empty --format (a script's unset variable) is refused, not taken
    // for no --format at all.
    if (format.empty() && app.get_option("--format")->count() > 0) parse_format(format);
    if (max_pixels) cmd.read.max_pixels = parse_max_pixels(*max_pixels);
    if (frame) cmd.read.frame = parse_int_option("--frame", *frame, 0, INT_MAX);
    if (quality) cmd.write.jpeg_quality = cmd.write.webp_quality = parse_int_option("--quality", *quality, 1, 100);
    if (jpeg_subsample) cmd.write.jpeg_subsample = parse_jpeg_subsample(*jpeg_subsample);
    if (depth) cmd.write.depth = parse_depth(*depth);
    const EncoderOptionsGiven encoder_given{quality.has_value(), jpeg_subsample.has_value(), png_level.has_value(),
                                            cmd.write.depth == Depth::U16};
    if (png_level) cmd.write.png_level = parse_int_option("--png-level", *png_level, 0, 9);
    if (report_file && report_file->empty()) throw UsageError("--report: give the file to write the report to");
    if (report_file) cmd.report = *report_file;
    cmd.read.auto_orient = !no_auto_orient;
    cmd.quiet = flags.quiet;

    if (compare.chosen() || golden.chosen() || report.chosen() || info.chosen()) {
      // CLI11 hands a subcommand's surplus words and options back to the main command.
      if (!paths.empty() || !flags.first_given().empty() || !format.empty() || frame || flags.quiet ||
          !pipeline_in_order(app, op_options).empty() || cmd.verbose || !cmd.report.empty() || cmd.write.strip ||
          no_auto_orient)
        throw UsageError(parsed_chain(app).front()->get_name() +
                         ": takes no operations, -v, -q, --report, --strip, --no-auto-orient or images of the "
                         "processing command");
      if (compare.chosen()) result.compare = compare_command(compare.command());
      if (golden.chosen()) result.golden = golden.command();
      if (report.chosen()) result.report = report.command();
      if (info.chosen()) result.info = info_command(info.command());
      return result;
    }
    cmd.pipeline = pipeline_in_order(app, op_options);
    // After the ops: in "gpuimg in.png --blur out.png" the clearer complaint
    // is that --blur got 'out.png' as its radius.
    const bool listed = !flags.files_from.empty();
    if (flags.files_base && !listed)
      throw UsageError("--files-base: names the folder that --files-from's paths are relative to; give --files-from LIST too");
    if (paths.empty()) throw UsageError(listed ? "missing OUTPUT folder" : "missing INPUT and OUTPUT");
    // ImageMagick's and GraphicsMagick's commands, typed out of habit: as a
    // batch, "gpuimg convert a.png b.png" would read a file named convert.
    if (std::error_code e; !listed && !std::filesystem::exists(paths[0], e)) {
      for (const char* theirs : {"convert", "magick", "mogrify", "gm"})
        if (paths[0] == theirs)
          throw UsageError("'" + paths[0] + "' is no command: gpuimg takes the files directly, as gpuimg INPUT "
                           "[OPERATION ...] OUTPUT");
      if (paths[0] == "identify")
        throw UsageError("'identify' is no command: ImageMagick's identify is gpuimg info FILE...");
      if (paths[0] == "help") {
        // Anything else on the line (help --invert: an operation) is refused, not passed over.
        if (static_cast<std::size_t>(argc - 1) != paths.size()) throw UsageError(kOneTopic);
        std::cout << help_text(app, std::vector<std::string>(paths.begin() + 1, paths.end()));
        return result;
      }
      // A subcommand mistyped ("compar a.png b.png") would read as a file
      // that is not there; a word with no '.' or '/' is rarely a file. Not
      // where OUTPUT is a folder: a batch whose first input folder is
      // missing ("infos") reports it and goes on with the others.
      if (paths[0].find_first_of("./") == std::string::npos && !names_folder(paths.back())) {
        if (const std::optional<std::string> near = near_miss(paths[0], subcommand_names(app)); near && *near != paths[0])
          throw UsageError("'" + paths[0] + "' is no file or subcommand; did you mean " + *near + "?");
      }
    }
    if (paths.size() == 1 && !listed) {
      // "--resize 100x100> th.png" unquoted: the shell took "> th.png" as
      // a redirection, leaving the size last and an empty th.png.
      if (argc >= 3 && std::string(argv[argc - 2]) == "--resize")
        throw UsageError("missing OUTPUT: a '>' or '<' after a size (--resize 100x100>) must be quoted, "
                         "'100x100>', or the shell reads it as a redirection");
      throw UsageError("missing OUTPUT");
    }
    // An empty word is most often an unset shell variable ("$in"); as a
    // file it would only fail later with a message naming nothing.
    for (std::size_t i = 0; i < paths.size(); ++i)
      if (paths[i].empty())
        throw UsageError(std::string("empty path given as ") + (i + 1 == paths.size() ? "OUTPUT" : "INPUT"));
    if (listed || paths.size() > 2 || names_folder(paths.back())) {
      if (paths.size() > 2) refuse_unquoted_value(app, op_options, argc, argv, paths.back());
      result.batch = batch_command(paths, flags, format, encoder_given, cmd);
      return result;
    }
    if (!flags.first_given().empty())
      throw UsageError(flags.first_given() + ": only for a batch (several INPUTs, an output FOLDER/, or --files-from)");
    cmd.input = paths[0];
    cmd.output = paths[1];
    // A folder never reads as an image, whatever its name (photos.png/).
    if (std::error_code ec; std::filesystem::is_directory(cmd.input, ec))
      throw UsageError(cmd.input + ": is a folder; to process the images in it, end OUTPUT with '/' (" + cmd.output +
                       "/), the folder they go to");
    cmd.input = input_named(cmd.input);
    take_output_prefix(cmd.output, format);
    if (cmd.output == "-" && format.empty())
      throw UsageError("OUTPUT -: stdout has no extension to choose a format by: give --format EXT, or EXT:- (png:-)");
    if (!format.empty()) cmd.write.format = parse_format(format);
    if (!format.empty() && cmd.output != "-" && !flags.quiet) warn_if_extension_differs(cmd.output, cmd.write.format);
    if (!flags.quiet) encoder_given.warn_unless_they_apply(cmd.write.format.empty() ? lower_extension(cmd.output) : cmd.write.format);
  } catch (const UsageError& e) {
    print_error(e, hint());
    result.exit_code = static_cast<int>(ExitCode::usage);
    return result;
  }
  result.run = true;
  return result;
}

}  // namespace gpuimg
