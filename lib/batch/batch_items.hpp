#pragma once
// Which files a batch processes and where each result goes: folders walked
// for image extensions, named files taken as given, every output mapped
// inside the output folder, the list sorted and cut into shards.
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace gpuimg {

struct BatchItem {
  std::string input;
  std::string output;
  std::string problem;  // set when the item must fail without being read ("output would escape ...")
};

struct Shard {
  int index = 1;  // K of K/N, 1-based
  int count = 1;  // N
};

// "3/16" -> {3, 16}. Throws UsageError unless 1 <= K <= N.
Shard parse_shard(const std::string& text);

struct Sources {
  std::vector<std::string> paths;       // files and folders from the command line
  std::vector<std::string> listed;      // files from --files-from, mirrored by their own relative path
  bool recursive = true;
  std::string listed_base;              // --files-base: the folder listed paths are relative to; empty: the current one
};

// Folders: every file below (or directly in, without recursion) whose
// extension is in readable_extensions(), mirrored by its path relative to the
// folder. Files named on the command line: whatever their extension, written
// under their file name. Listed files: under the path as listed, which must be
// relative and free of '..', or absolute inside the listed paths' base, the
// current folder or `listed_base` (then relative to it); with `listed_base`,
// a relative path is read from inside it. The output keeps the input's extension, or takes
// `format` when not empty; an extension gpuimg cannot write becomes png.
// Sorted by input path; two inputs that map to one output: the later fails.
// Folder walks skip `output_dir` itself. Throws InputError for a missing
// folder or an unreadable directory, and Interrupted once stop() returns
// true (asked between directory entries: a walk of a large tree stops
// promptly at Ctrl-C).
std::vector<BatchItem> plan_batch(const Sources& sources, const std::string& output_dir, const std::string& format,
                                  const std::function<bool()>& stop = {});

struct Interrupted : std::exception {
  const char* what() const noexcept override { return "interrupted"; }
};

// Item i belongs to shard K/N when i % N == K - 1: N runs over the same
// sorted list cover it exactly once.
std::vector<BatchItem> take_shard(const std::vector<BatchItem>& items, Shard shard);

// Where plan_batch writes a file named on the command line (not found in a
// folder's walk); throws as map_output.
std::string named_file_output(const std::string& input, const std::string& output_dir, const std::string& format);

// output_dir/relative with its extension replaced by `extension`; throws
// OutputError naming `relative` when it is empty, absolute or has a '..'
// component, so no output can land outside output_dir.
std::string map_output(const std::string& output_dir, const std::string& relative, const std::string& extension);

}  // namespace gpuimg
