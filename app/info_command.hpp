#pragma once
// `gpuimg info FILE... [--json]`: what each image is (format, size,
// channels, depth, frames, metadata), read from its headers without
// decoding its pixels, as ImageMagick's identify and libvips's vipsheader
// tell it.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpuimg {

struct InfoCommand {
  std::vector<std::string> files;
  bool json = false;
};

// The `info` subcommand of `parent`; its options are bound to members, so
// it stays where it was built.
class InfoCli {
 public:
  explicit InfoCli(CLI::App& parent);
  InfoCli(const InfoCli&) = delete;
  InfoCli& operator=(const InfoCli&) = delete;
  bool chosen() const { return sub_->parsed(); }
  InfoCommand command() const { return cmd_; }

 private:
  CLI::App* sub_;
  InfoCommand cmd_;
};

// Prints a line for each file on stdout, or one JSON document (schema
// gpuimg-info/1) for them all, and each file that could not be read as one
// line on stderr, the others still printed. Returns 0, or 1 where a file
// could not be read: the processing command's status for a file error, as
// no other outcome needs a status of its own.
int run_info(const InfoCommand& cmd);

}  // namespace gpuimg
