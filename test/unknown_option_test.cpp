// An unknown option, in processing, compare or golden, is named as typed,
// with the nearest known option of that command when one is close; the
// leftover words of compare are named in the order given.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "near_miss.hpp"
#include "run_binary.hpp"

namespace gpuimg::test {
namespace {

TEST(NearMiss, OnlyCloseNamesAreSuggested) {
  const std::vector<std::string> known = {"--ignore", "--json", "--max-diff", "--max-differing", "--mask"};
  EXPECT_EQ(near_miss("--ignor", known), "--ignore");
  EXPECT_EQ(near_miss("--max-dif", known), "--max-diff");
  EXPECT_EQ(near_miss("--jsno", known), "--json");  // a swap of neighbours counts 1
  EXPECT_EQ(near_miss("--masks", known), "--mask");
  EXPECT_EQ(near_miss("--frobnicate", known), std::nullopt);
  EXPECT_EQ(near_miss("-x", known), std::nullopt);
  EXPECT_EQ(near_miss("", known), std::nullopt);
  // A name cut short: the one option it begins, before a nearer slip.
  const std::vector<std::string> ops = {"--grayscale", "--gamma", "--shard", "--sharpen", "--no-recursive",
                                        "--no-auto-orient"};
  EXPECT_EQ(near_miss("--gray", ops), "--grayscale");
  EXPECT_EQ(near_miss("--sharp", ops), "--sharpen");
  EXPECT_EQ(near_miss("--no-", ops), std::nullopt);  // begins two that part ways
  EXPECT_EQ(near_miss("--sh", ops), std::nullopt);   // two letters
  // Begun names that share the shortest: it.
  EXPECT_EQ(near_miss("--max-dif", known), "--max-diff");
  EXPECT_EQ(near_miss("--max-differ", {"--max-diff", "--max-differing", "--max-differing-share"}), "--max-differing");
  EXPECT_EQ(near_miss("--dev", {"--device", "--devices", "--depth"}), "--device");
  EXPECT_EQ(near_miss("--ign", known), "--ignore");
  EXPECT_EQ(near_miss("--max-diff", known), "--max-diff");  // a name itself, though it begins another
  // Another letters' case, however far by edits.
  EXPECT_EQ(near_miss("--JSON", known), "--json");
  EXPECT_EQ(near_miss("--Max-Differing", known), "--max-differing");
  EXPECT_EQ(near_miss("--GRAY", ops), "--grayscale");
  EXPECT_EQ(near_miss("--JSNO", known), "--json");
  EXPECT_EQ(near_miss("--gray", {"--GrayScale"}), "--GrayScale") << "given as spelt";
}

std::string error_of(std::vector<std::string> args) {
  const RunResult r = run_binary(args);
  EXPECT_EQ(r.status, 2) << r.err;
  return r.err;
}

TEST(UnknownOption, NamedAsTypedWithADidYouMean) {
  const std::string scene = (data_dir() / "scene.png").string();
  EXPECT_EQ(error_of({"compare", scene, scene, "--ignor", "400,50,10,10"}),
            "gpuimg: unknown option '--ignor'; did you mean --ignore? (see gpuimg compare --help)\n");
  EXPECT_EQ(error_of({"compare", scene, scene, "--max-dif=3"}),
            "gpuimg: unknown option '--max-dif'; did you mean --max-diff? (see gpuimg compare --help)\n");
  // An operation's flag is not suggested for compare's slip.
  EXPECT_EQ(error_of({"compare", scene, scene, "--blr", "3"}),
            "gpuimg: unknown option '--blr' (see gpuimg compare --help)\n");
  EXPECT_EQ(error_of({"golden", "check", "cases.txt", "--jsn"}),
            "gpuimg: unknown option '--jsn'; did you mean --json? (see gpuimg golden check --help)\n");
  EXPECT_EQ(error_of({scene, "--blr", "3", "out.png"}),
            "gpuimg: unknown option '--blr'; did you mean --blur? (see gpuimg --help)\n");
  // Other tools' names and spellings, any letters' case, names cut short,
  // and a horizontal flip, --flop, though --flip is nearer: {typed, its
  // value or "", the option meant}.
  for (const auto& [typed, value, meant] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"--negate", "", "--invert"},
           {"--grey", "", "--grayscale"},
           {"-grey", "", "--grayscale"},
           {"--INVERT", "", "--invert"},
           {"--GREY", "", "--grayscale"},
           {"--expr", "v*2", "--map"},
           {"--kernel", "3x3:1,1,1,1,1,1,1,1,1", "--convolve"},
           {"--dev", "cpu", "--device"},
           {"--hflip", "", "--flop"},
           {"--unsharp-mask", "2", "--unsharp"},
           {"--gray", "", "--grayscale"},
           {"--sharp", "1", "--sharpen"},
       }) {
    std::vector<std::string> args = {scene, typed};
    if (!value.empty()) args.push_back(value);
    args.push_back("out.png");
    EXPECT_EQ(error_of(args),
              "gpuimg: unknown option '" + typed + "'; did you mean " + meant + "? (see gpuimg --help)\n");
  }
  EXPECT_EQ(error_of({scene, "--invert", "-o", "out.png"}),
            "gpuimg: unknown option '-o': OUTPUT is the last word, as in gpuimg INPUT [OPERATION ...] OUTPUT (see "
            "gpuimg --help)\n");
  EXPECT_EQ(error_of({"compare", scene, scene, "a", "b"}),
            "gpuimg: compare: unexpected argument 'a b' (see gpuimg compare --help)\n");
}

// CLI11's "A subcommand is required" and "expected is required", in words
// that say what to type.
TEST(UnknownOption, SubcommandsSayWhatIsMissing) {
  const std::string scene = (data_dir() / "scene.png").string();
  EXPECT_EQ(error_of({"golden"}), "gpuimg: golden: give a subcommand: check or update (see gpuimg golden --help)\n");
  EXPECT_EQ(error_of({"golden", "chekc", "cases.txt"}),
            "gpuimg: golden: unknown subcommand 'chekc'; did you mean check? (see gpuimg golden --help)\n");
  EXPECT_EQ(error_of({"golden", "run", "cases.txt"}),
            "gpuimg: golden: unknown subcommand 'run'; give check or update (see gpuimg golden --help)\n");
  EXPECT_EQ(error_of({"golden", "check"}), "gpuimg: golden check: missing MANIFEST (see gpuimg golden check --help)\n");
  EXPECT_EQ(error_of({"report"}), "gpuimg: report: give a subcommand: merge (see gpuimg report --help)\n");
  EXPECT_EQ(error_of({"compare"}), "gpuimg: compare: missing EXPECTED and ACTUAL (see gpuimg compare --help)\n");
  EXPECT_EQ(error_of({"compare", scene}), "gpuimg: compare: missing ACTUAL (see gpuimg compare --help)\n");
  // ImageMagick's commands typed out of habit, where no such file is; a
  // file of that name is an input like any other.
  const std::string no_command =
      "' is no command: gpuimg takes the files directly, as gpuimg INPUT [OPERATION ...] OUTPUT (see gpuimg --help)\n";
  for (const char* theirs : {"convert", "magick"})
    EXPECT_EQ(error_of({theirs, scene, "out.png"}), std::string("gpuimg: '") + theirs + no_command);
  EXPECT_EQ(error_of({"convert"}), "gpuimg: 'convert" + no_command);
  // A size's '>' left to the shell: the size is the last word.
  EXPECT_EQ(error_of({scene, "--resize", "100x100"}),
            "gpuimg: missing OUTPUT: a '>' or '<' after a size (--resize 100x100>) must be quoted, '100x100>', or the "
            "shell reads it as a redirection (see gpuimg --help)\n");
  TempDir tmp;
  fs::copy_file(scene, tmp / "convert");
  const RunResult r = run_binary({"convert", "--invert", "--device", "cpu", "out.png"}, {tmp.path()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(tmp / "out.png"));
  // In a batch to a folder, a missing first input is that input's failure
  // alone: the others are written.
  const RunResult batch = run_binary({"infos", scene, "--device", "cpu", "out/"}, {tmp.path()});
  EXPECT_EQ(batch.status, 1) << batch.err;
  EXPECT_NE(batch.err.find("infos"), std::string::npos) << batch.err;
  EXPECT_TRUE(fs::exists(tmp / "out" / "scene.png"));
  // help: the usage, an operation's help as --help gives it, or a subcommand's.
  const RunResult usage = run_binary({"help"});
  EXPECT_EQ(usage.status, 0);
  EXPECT_EQ(usage.out.rfind("gpuimg: fast, bit-exact image processing", 0), 0u) << usage.out;
  const RunResult blur = run_binary({"help", "blur"});
  EXPECT_EQ(blur.status, 0);
  EXPECT_EQ(blur.out, "--blur R (1..4096)\n"
                      "  Box blur: the mean over the (2R+1)x(2R+1) window, border replicate, exact, rounded half up.\n"
                      "  R: radius in pixels, an integer from 1 to 4096.\n"
                      "  Example: --blur 3\n");
  // As git help and man habits type it, the option itself.
  for (const char* typed : {"--blur", "-blur"}) EXPECT_EQ(run_binary({"help", typed}).out, blur.out) << typed;
  // Only an operation's name: the command's own options parse as ever.
  EXPECT_EQ(error_of({"help", "--bluur"}), "gpuimg: unknown option '--bluur'; did you mean --blur? (see gpuimg --help)\n");
  EXPECT_EQ(run_binary({"help", "-h"}).out, usage.out);
  const RunResult compare = run_binary({"help", "compare"});
  EXPECT_EQ(compare.status, 0);
  EXPECT_EQ(compare.out.rfind("Compare ACTUAL with EXPECTED", 0), 0u) << compare.out;
  EXPECT_EQ(error_of({"help", "bluur"}),
            "gpuimg: help: no operation or subcommand 'bluur'; did you mean blur? (see gpuimg --help)\n");
  for (const std::vector<std::string>& more :
       {std::vector<std::string>{"help", "blur", "compare"}, {"help", "--invert", "x"}, {"help", "golden", "check", "x"}})
    EXPECT_EQ(error_of(more), "gpuimg: help: takes one operation or subcommand, as in gpuimg help blur or gpuimg help "
                              "golden check (see gpuimg --help)\n");
  // A subcommand's own subcommands, and help's own help.
  const RunResult check = run_binary({"help", "golden", "check"});
  EXPECT_EQ(check.status, 0);
  EXPECT_EQ(check.out, run_binary({"golden", "check", "--help"}).out);
  EXPECT_EQ(run_binary({"help", "report", "merge"}).out, run_binary({"report", "merge", "--help"}).out);
  EXPECT_EQ(error_of({"help", "golden", "chek"}),
            "gpuimg: help: golden has no subcommand 'chek'; did you mean check? (see gpuimg --help)\n");
  EXPECT_EQ(error_of({"help", "report", "list"}), "gpuimg: help: report has no subcommand 'list'; give merge (see gpuimg --help)\n");
  EXPECT_EQ(error_of({"help", "golen", "check"}),
            "gpuimg: help: no subcommand 'golen'; did you mean golden? (see gpuimg --help)\n");
  EXPECT_EQ(error_of({"help", "compare", "x"}), "gpuimg: help: compare has no subcommands of its own: gpuimg help compare "
                                                "prints its help (see gpuimg --help)\n");
  const RunResult help = run_binary({"help", "help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out.rfind("gpuimg help [OPERATION|SUBCOMMAND [SUBCOMMAND]]\n", 0), 0u) << help.out;
  EXPECT_EQ(compare.out.find("Usage: gpuimg compare"), compare.out.find("Usage:")) << compare.out;
  // A subcommand mistyped, where no file is named so.
  for (const auto& [typed, meant] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"compar", scene, scene}, "compar"}, {{"infp", scene}, "infp"}, {{"golde", "check", "x"}, "golde"}})
    EXPECT_EQ(error_of(typed), "gpuimg: '" + meant + "' is no file or subcommand; did you mean " +
                                   (meant == "compar" ? "compare" : meant == "infp" ? "info" : "golden") +
                                   "? (see gpuimg --help)\n");
}

// Text pasted from a page turns "--" into a dash of its own: read as a
// file, "—invert" would have written an unprocessed copy. Refused, with the
// option meant, unless a file has that name.
TEST(UnknownOption, APastedDashBeforeAnOptionIsNamed) {
  const std::string scene = (data_dir() / "scene.png").string();
  TempDir tmp;
  for (const auto& [typed, dash, meant] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"\u2014invert", "an em dash (U+2014)", "--invert"},
           {"\u2013levels", "an en dash (U+2013)", "--levels"},
           {"\u2013-blur", "an en dash (U+2013)", "--blur"},
           {"\u2212\u2212device=cpu", "a minus sign (U+2212)", "--device"},
           {"-\u2014invert", "an em dash (U+2014)", "--invert"},
           {"\uff0dinvert", "a full-width hyphen (U+FF0D)", "--invert"}}) {
    const RunResult r = run_binary({scene, typed, "5%,95%", "out/"}, {tmp.path()});
    EXPECT_EQ(r.status, 2) << typed;
    EXPECT_EQ(r.err, "gpuimg: '" + typed + "' starts with " + dash + ", not '--' (pasted text?): did you mean " + meant +
                         "? (see gpuimg --help)\n");
    EXPECT_FALSE(fs::exists(tmp / "out")) << typed;
  }
  // A file of that name is an input like any other.
  fs::copy_file(scene, tmp / "\u2014invert");
  const RunResult named = run_binary({"\u2014invert", "--invert", "out.png"}, {tmp.path()});
  EXPECT_EQ(named.status, 0) << named.err;
  // After "--", a word is a file, whatever it starts with.
  const RunResult after = run_binary({scene, "--format", "png", "--", "\u2014blur"}, {tmp.path()});
  EXPECT_EQ(after.status, 0) << after.err;
  EXPECT_TRUE(fs::exists(tmp / "\u2014blur"));
  // A dash before a word that is no option: a file, missing.
  EXPECT_EQ(run_binary({scene, "\u2014frobnicate", "out/"}, {tmp.path()}).status, 1);
  // A subcommand's options, before parsing has found the subcommand.
  for (const auto& [args, help] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"info", "\u2014json", scene}, "gpuimg info --help"},
           {{"compare", scene, scene, "\u2013json"}, "gpuimg compare --help"},
           {{"golden", "check", "\u2014json", "cases.txt"}, "gpuimg golden check --help"}}) {
    const RunResult r = run_binary(args, {tmp.path()});
    EXPECT_EQ(r.status, 2) << args.front();
    EXPECT_NE(r.err.find("(pasted text?): did you mean --json? (see " + help + ")"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace gpuimg::test
