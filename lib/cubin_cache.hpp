#pragma once
// The disk cache of kernels compiled at run time: $XDG_CACHE_HOME/gpuimg,
// else $HOME/.cache/gpuimg, one file per kernel, named for a 64-bit hash of
// its key (`0123456789abcdef.cubin`). An entry holds its whole key too,
// checked on every read, so two keys of one hash cost a rebuild, never the
// wrong kernel; and a checksum of its cubin, so a truncated or damaged entry
// is a miss, rebuilt and written over. Entries are written to a temporary
// file beside them and renamed into place: processes filling the same entry
// at once each leave a whole one, and none reads half of another's.
// The cache never fails a run: a folder that cannot be made, opened or
// written, or that another user could write to, is not used.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuimg {

// "0123456789abcdef": the hash of a key, as -v shows it and the entry is named.
std::string key_hash(const std::string& key);

class CubinCache {
 public:
  // Opens the folder, making it and any missing parent (0700) as needed;
  // reads the environment at each construction.
  CubinCache();
  ~CubinCache();
  CubinCache(const CubinCache&) = delete;
  CubinCache& operator=(const CubinCache&) = delete;

  // Whether entries can be looked up and stored.
  bool usable() const { return dir_fd_ >= 0; }

  // The cubin stored for `key`; nothing when there is none, or it is not a
  // whole entry of this format for exactly this key.
  std::optional<std::vector<char>> find(const std::string& key) const;

  // Stores `cubin` for `key` over any entry there; false when it could not
  // (the temporary file is removed).
  bool store(const std::string& key, const std::vector<char>& cubin) const;

 private:
  int dir_fd_ = -1;
};

}  // namespace gpuimg
