// The shell completions `gpuimg --completion bash|zsh|fish` prints, run in
// the shells themselves where they are installed: after a subcommand's
// words (golden check, golden update, report merge, compare, info) each offers
// that subcommand's options and subcommands, all that its parser takes and
// no other command's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "compare_command.hpp"
#include "golden_command.hpp"
#include "info_command.hpp"
#include "report_command.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

using Words = std::vector<std::string>;
using Names = std::set<std::string>;

// What a command takes, as its own parser declares it.
struct Takes {
  Names options;      // "--junit", "-q"
  Names subcommands;  // "check", "update"
};

void walk(const CLI::App& app, const Words& path, std::map<Words, Takes>& out) {
  Takes& takes = out[path];
  for (const CLI::Option* o : app.get_options()) {
    // --help, and the hidden options (no group), are left out of --help, and so of the completions.
    if (o->get_positional() || o->get_group().empty() || o == app.get_help_ptr()) continue;
    for (const std::string& l : o->get_lnames()) takes.options.insert("--" + l);
    for (const std::string& s : o->get_snames()) takes.options.insert("-" + s);
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    takes.subcommands.insert(sub->get_name());
    Words inner = path;
    inner.push_back(sub->get_name());
    walk(*sub, inner, out);
  }
}

// Every subcommand at every depth ({} the top level, {"golden", "check"}),
// built by the very classes gpuimg's parser is built from: an option added
// to one of them is expected in the completions with no change here.
std::map<Words, Takes> subcommand_parsers() {
  CLI::App app{"gpuimg"};
  const CompareCli compare(app);
  const GoldenCli golden(app);
  const ReportCli report(app);
  const InfoCli info(app);
  std::map<Words, Takes> out;
  walk(app, {}, out);
  return out;
}

std::string line_of(const Words& words) {
  std::string out = "gpuimg";
  for (const std::string& w : words) out += " " + w;
  return out;
}

std::optional<std::string> on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / name).c_str(), X_OK) == 0) return (fs::path(dir) / name).string();
  return std::nullopt;
}

Names lines_before_tab(const std::string& text) {
  Names out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) out.insert(line.substr(0, line.find('\t')));
  return out;
}

std::string script(const std::string& shell) {
  const RunResult r = run_binary({"--completion", shell});
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

// What bash offers for the line gpuimg WORDS..., the last word the one
// being completed, with the script sourced as a user's shell sources it.
Names bash_offers(const Words& words, const fs::path& cwd) {
  Words args = {"-c",
                "source <(\"$0\" --completion bash) || exit 3\n"
                "COMP_WORDS=(gpuimg \"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpuimg\n"
                "printf '%s\\n' \"${COMPREPLY[@]}\"",
                GPUIMG_BINARY};
  args.insert(args.end(), words.begin(), words.end());
  const RunResult r = run_program(on_path("bash").value_or("/bin/bash"), args, {cwd});
  EXPECT_EQ(r.status, 0) << line_of(words) << ": " << r.err;
  return lines_before_tab(r.out);
}

// What fish offers for the line, from the script in `file`.
Names fish_offers(const std::string& fish, const std::string& file, const Words& words, const fs::path& cwd) {
  const Words args = {"--no-config", "-c", "source $argv[1]; and complete -C $argv[2]", file, line_of(words)};
  const RunResult r = run_program(fish, args, {cwd});
  EXPECT_EQ(r.status, 0) << line_of(words) << ": " << r.err;
  return lines_before_tab(r.out);
}

Words with(Words path, const std::string& last) {
  path.push_back(last);
  return path;
}

TEST(Completions, BashOffersEachSubcommandItsOwnOptionsAndWords) {
  const TempDir empty;  // no file names among the words offered
  for (const auto& [path, takes] : subcommand_parsers()) {
    if (path.empty()) continue;  // the top level's options are processing's, below
    SCOPED_TRACE(line_of(path));
    EXPECT_EQ(bash_offers(with(path, "-"), empty.path()), takes.options);
    if (!takes.subcommands.empty()) {
      EXPECT_EQ(bash_offers(with(path, ""), empty.path()), takes.subcommands);
    }
  }
  EXPECT_EQ(bash_offers({""}, empty.path()), subcommand_parsers().at({}).subcommands);
}

TEST(Completions, BashOffersEachOptionAfterItsOwnSubcommandAlone) {
  const TempDir dir;
  std::ofstream(dir / "cases.txt").put('\n');
  EXPECT_EQ(bash_offers({"golden", "check", "cases.txt", "--ju"}, dir.path()), Names{"--junit"});
  EXPECT_EQ(bash_offers({"golden", "check", "--di"}, dir.path()), Names{"--diff-dir"});
  EXPECT_EQ(bash_offers({"golden", "update", "--pr"}, dir.path()), Names{"--prune"});
  EXPECT_EQ(bash_offers({"golden", "check", "--pr"}, dir.path()), Names{});
  EXPECT_EQ(bash_offers({"golden", "update", "--ju"}, dir.path()), Names{});
  EXPECT_EQ(bash_offers({"report", "merge", "--j"}, dir.path()), Names{"--json"});
  EXPECT_EQ(bash_offers({"info", "cases.txt", "--j"}, dir.path()), Names{"--json"});
  EXPECT_EQ(bash_offers({"info", "cas"}, dir.path()), Names{"cases.txt"});
  EXPECT_EQ(bash_offers({"compare", "a.png", "--max-d"}, dir.path()), (Names{"--max-diff", "--max-differing",
                                                                              "--max-differing-share"}));
  EXPECT_EQ(bash_offers({"golden", "ch"}, dir.path()), Names{"check"});
  EXPECT_EQ(bash_offers({"golden", "check", "cas"}, dir.path()), Names{"cases.txt"});
  // Processing: its own options, none of a subcommand's, and files.
  EXPECT_EQ(bash_offers({"in.png", "--bl"}, dir.path()), Names{"--blur"});
  EXPECT_EQ(bash_offers({"in.png", "--ju"}, dir.path()), Names{});
  EXPECT_EQ(bash_offers({"in.png", "--pr"}, dir.path()), Names{"--progress"});
  EXPECT_EQ(bash_offers({"go"}, dir.path()), Names{"golden"});
}

TEST(Completions, FishOffersEachSubcommandItsOwnOptionsAndWords) {
  const std::optional<std::string> fish = on_path("fish");
  if (!fish) GTEST_SKIP() << "no fish on PATH";
  const TempDir dir;
  const std::string file = dir.file("gpuimg.fish");
  std::ofstream(file) << script("fish");
  const TempDir empty;
  ASSERT_EQ(run_program(*fish, {"--no-config", "-n", file}).status, 0);
  for (const auto& [path, takes] : subcommand_parsers()) {
    if (path.empty()) continue;
    SCOPED_TRACE(line_of(path));
    EXPECT_EQ(fish_offers(*fish, file, with(path, "-"), empty.path()), takes.options);
    if (!takes.subcommands.empty()) {
      EXPECT_EQ(fish_offers(*fish, file, with(path, ""), empty.path()), takes.subcommands);
    }
  }
  EXPECT_EQ(fish_offers(*fish, file, {"golden", "check", "m.txt", "--ju"}, empty.path()), Names{"--junit"});
  EXPECT_EQ(fish_offers(*fish, file, {"golden", "update", "--pr"}, empty.path()), Names{"--prune"});
  EXPECT_EQ(fish_offers(*fish, file, {"golden", "check", "--pr"}, empty.path()), Names{});
  EXPECT_EQ(fish_offers(*fish, file, {"in.png", "--ju"}, empty.path()), Names{});
  EXPECT_EQ(fish_offers(*fish, file, {"in.png", "--bl"}, empty.path()), Names{"--blur"});
}

// zsh completes only inside its line editor, so its script is read here:
// each subcommand's branch holds exactly its options.
TEST(Completions, ZshGivesEachSubcommandABranchOfItsOwnOptions) {
  const std::string text = script("zsh");
  if (const std::optional<std::string> zsh = on_path("zsh")) {
    const TempDir dir;
    std::ofstream(dir / "_gpuimg") << text;
    const RunResult r = run_program(*zsh, {"-n", dir.file("_gpuimg")});
    EXPECT_EQ(r.status, 0) << r.err;
  }
  const auto branch = [&](const std::string& key) {
    const std::size_t from = text.find("\n  (" + key + ") _arguments");
    EXPECT_NE(from, std::string::npos) << key;
    return from == std::string::npos ? std::string() : text.substr(from, text.find(" ;;\n", from) - from);
  };
  const auto options = [](const std::string& branch) {
    Names out;
    const std::regex spec(R"('\*(-[-a-z0-9]+)\[)");
    for (std::sregex_iterator m(branch.begin(), branch.end(), spec), end; m != end; ++m) out.insert((*m)[1]);
    return out;
  };
  for (const auto& [path, takes] : subcommand_parsers()) {
    if (path.empty()) continue;
    std::string key;
    for (const std::string& w : path) key += "/" + w;
    const std::string b = branch(key);
    EXPECT_EQ(options(b), takes.options) << key;
    for (const std::string& sub : takes.subcommands) EXPECT_NE(b.find(sub), std::string::npos) << key << " " << sub;
  }
  const Names top = options(branch("''"));
  EXPECT_TRUE(top.count("--blur"));
  EXPECT_FALSE(top.count("--junit"));
  EXPECT_FALSE(top.count("--prune"));
}

}  // namespace
}  // namespace gpuimg::test
