#pragma once
// The operations as CLI11 options, shared by the processing command line and
// the golden manifest's ARGS, so both accept exactly the same words.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pipeline.hpp"

namespace gpuimg {

// Each op's option, mapped to the op's name.
using OpOptions = std::map<const CLI::Option*, std::string>;

// Adds one option per registered op to `app`, in the group `group`.
OpOptions add_op_options(CLI::App& app, const std::string& group);

// The help --help shows for operation `name` ("blur"): its summary, each
// parameter, an example; nullopt where no operation has that name.
std::optional<std::string> op_help(const std::string& name);

// After app.parse(): the stages in command-line order. Throws UsageError.
Pipeline pipeline_in_order(const CLI::App& app, const OpOptions& ops);

// Operation words, as in a manifest ("--blur", "3", "--invert"), and the
// options `add_options` declares beside them, their values read into its
// own variables. Throws UsageError naming the word that is neither an
// operation, such an option nor a value.
Pipeline parse_pipeline(const std::vector<std::string>& words,
                        const std::function<void(CLI::App&)>& add_options = {});

// CLI11's message for `e`, in gpuimg's words where CLI11's are unclear:
// "--resize: 1 required SIZE[:FILTER] missing" becomes "--resize: missing
// its value, SIZE[:FILTER]", and a flag given a value "--verbose takes no
// value". The command line and a manifest's ARGS say the same.
std::string parse_error_text(const CLI::ParseError& e);

// The options of the innermost subcommand parsed (`app` itself when none),
// as typed ("--max-diff"), for a did-you-mean: a slip in `compare` is not
// answered with an operation's flag.
std::vector<std::string> known_options(const CLI::App& app);

// A parameter as --list-ops shows it: " R (1..4096)", " ANGLE (90|180|270)", "[:FILTER (...)]".
std::string param_brief(const ParamSpec& p);

}  // namespace gpuimg
