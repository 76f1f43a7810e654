#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "apng.hpp"
#include "backends.hpp"

namespace gpuimg {
namespace {

using detail::read_uint;

constexpr std::uint32_t kPngIntMax = 0x7fffffff;  // PNG's four-byte integers stop at 2^31 - 1

struct Chunk {
  std::size_t at;  // its length field
  std::uint32_t length;
  std::string type;
  std::size_t data() const { return at + 8; }
};

std::string chunk_name(const Chunk& c) { return "the " + c.type + " chunk at byte " + std::to_string(c.at); }

[[noreturn]] void corrupt(const std::string& problem) { throw CodecFailure("corrupt APNG (" + problem + ")"); }

// Chunks whose data makes a frame: it goes to libpng under a fresh CRC,
// so the file's own is checked here. Another chunk's bad CRC is
// png_codec.cpp's (a metadata chunk's sets that item aside alone).
bool makes_frames(const std::string& type) {
  for (const char* t : {"IHDR", "PLTE", "tRNS", "acTL", "fcTL", "IDAT", "fdAT"})
    if (type == t) return true;
  return false;
}

// The chunk at `at`, within the file, its CRC checked where makes_frames.
Chunk chunk_at(const Bytes& file, std::size_t at) {
  if (file.size() - at < 12) throw CodecFailure("truncated PNG (no IEND chunk)");
  Chunk c{at, static_cast<std::uint32_t>(read_uint(file, at, 4, true)),
          std::string(file.begin() + static_cast<std::ptrdiff_t>(at + 4), file.begin() + static_cast<std::ptrdiff_t>(at + 8))};
  if (!std::all_of(c.type.begin(), c.type.end(), [](char ch) { return std::isalpha(static_cast<unsigned char>(ch)); }))
    corrupt("a chunk of no valid type at byte " + std::to_string(at));
  const std::uint64_t left = file.size() - at - 8;
  if (std::uint64_t{c.length} + 4 > left)
    throw CodecFailure("truncated PNG (chunk '" + c.type + "' at byte " + std::to_string(at) + " claims " +
                       std::to_string(c.length) + " bytes; " + std::to_string(left) + " follow)");
  if (makes_frames(c.type) &&
      crc32(crc32(0, nullptr, 0), file.data() + at + 4, c.length + 4) != read_uint(file, c.data() + c.length, 4, true))
    corrupt("CRC error in " + chunk_name(c));
  return c;
}

// An acTL before the first IDAT, walked leniently: whatever else is wrong
// with a still PNG is png_codec.cpp's to say.
bool has_animation_control(const Bytes& file) {
  for (std::uint64_t at = 8; detail::has(file, at, 12);) {
    if (detail::starts_with(file, "IDAT", at + 4) || detail::starts_with(file, "IEND", at + 4)) return false;
    if (detail::starts_with(file, "acTL", at + 4)) return true;
    at += 12 + read_uint(file, at, 4, true);
  }
  return false;
}

// The walk's state between chunks.
class LayoutReader {
 public:
  explicit LayoutReader(const Bytes& file) : file_(file) {}

  ApngLayout read() {
    const Chunk ihdr = chunk_at(file_, 8);
    if (ihdr.type != "IHDR" || ihdr.length != 13) corrupt("no IHDR chunk of 13 bytes first");
    layout_.ihdr = {ihdr.data(), 13};
    width_ = be32(ihdr.data());
    height_ = be32(ihdr.data() + 4);
    for (std::size_t at = ihdr.at + 12 + ihdr.length;;) {
      const Chunk c = chunk_at(file_, at);
      if (c.type == "IEND") break;
      take(c);
      if (seen_idat_ && c.type != "IDAT") idat_ended_ = true;
      at += 12 + std::size_t{c.length};
    }
    if (!seen_idat_) corrupt("no IDAT chunk");
    if (layout_.frames.size() != frame_count_)
      corrupt("acTL gives " + std::to_string(frame_count_) + " frames; the file holds " +
              std::to_string(layout_.frames.size()) + " fcTL chunks");
    check_last_frame_has_data();
    return layout_;
  }

 private:
  std::uint32_t be32(std::size_t at) const { return static_cast<std::uint32_t>(read_uint(file_, at, 4, true)); }

  void take(const Chunk& c) {
    const ChunkSpan span{c.data(), c.length};
    if (c.type == "PLTE" && !seen_idat_) layout_.plte = span;
    if (c.type == "tRNS" && !seen_idat_) layout_.trns = span;
    if (c.type == "acTL") control(c);
    if (c.type == "fcTL") frame_control(c);
    if (c.type == "IDAT") image_data(c);
    if (c.type == "fdAT") frame_data(c);
  }

  void control(const Chunk& c) {
    if (frame_count_ != 0) corrupt("a second acTL chunk, at byte " + std::to_string(c.at));
    if (c.length != 8) corrupt(chunk_name(c) + " holds " + std::to_string(c.length) + " bytes, not 8");
    frame_count_ = be32(c.data());
    if (frame_count_ == 0 || frame_count_ > kPngIntMax) corrupt("acTL gives " + std::to_string(frame_count_) + " frames");
  }

  // Sequence numbers run 0, 1, 2... over fcTL and fdAT, in file order.
  void sequence(const Chunk& c) {
    const std::uint32_t seq = be32(c.data());
    if (seq != next_sequence_)
      corrupt(chunk_name(c) + " has sequence number " + std::to_string(seq) + " where " +
              std::to_string(next_sequence_) + " comes next");
    ++next_sequence_;
  }

  void frame_control(const Chunk& c) {
    if (c.length != 26) corrupt(chunk_name(c) + " holds " + std::to_string(c.length) + " bytes, not 26");
    if (frame_count_ == 0) corrupt(chunk_name(c) + " comes before acTL");
    sequence(c);
    check_last_frame_has_data();
    const std::size_t d = c.data();
    ApngFrame f{be32(d + 4), be32(d + 8), be32(d + 12), be32(d + 16), ApngDispose::none, ApngBlend::source, {}};
    const std::string frame = "frame " + std::to_string(gpuimg_frame(layout_.frames.size()));
    if (file_[d + 24] > 2) corrupt(frame + ": dispose_op " + std::to_string(file_[d + 24]));
    if (file_[d + 25] > 1) corrupt(frame + ": blend_op " + std::to_string(file_[d + 25]));
    f.dispose = static_cast<ApngDispose>(file_[d + 24]);
    f.blend = static_cast<ApngBlend>(file_[d + 25]);
    const std::string region = std::to_string(f.width) + "x" + std::to_string(f.height) + " at " + std::to_string(f.x) +
                               "," + std::to_string(f.y);
    if (f.width == 0 || f.height == 0 || std::uint64_t{f.x} + f.width > width_ || std::uint64_t{f.y} + f.height > height_)
      corrupt(frame + ": " + region + " is not inside the " + std::to_string(width_) + "x" + std::to_string(height_) +
              " canvas");
    if (!seen_idat_) {
      if (!layout_.frames.empty()) corrupt("a second fcTL chunk before IDAT, at byte " + std::to_string(c.at));
      if (f.x != 0 || f.y != 0 || f.width != width_ || f.height != height_)
        corrupt("the default image's frame is " + region + ", not the whole canvas");
      layout_.default_in_animation = true;
    }
    if (layout_.frames.size() == frame_count_)
      corrupt(chunk_name(c) + " is past the " + std::to_string(frame_count_) + " frames acTL gives");
    layout_.frames.push_back(std::move(f));
    frame_after_idat_ = seen_idat_;
  }

  void image_data(const Chunk& c) {
    if (idat_ended_) corrupt(chunk_name(c) + " is apart from the IDAT chunks before it");
    seen_idat_ = true;
    if (layout_.default_in_animation) layout_.frames[0].data.push_back({c.data(), c.length});
  }

  void frame_data(const Chunk& c) {
    if (!frame_after_idat_) corrupt(chunk_name(c) + " comes before any fcTL past IDAT");
    if (c.length < 4) corrupt(chunk_name(c) + " holds no sequence number");
    sequence(c);
    layout_.frames.back().data.push_back({c.data() + 4, c.length - std::size_t{4}});
  }

  // The animation's frame `i` as --frame counts it: past the default
  // image where that is a frame of its own.
  std::size_t gpuimg_frame(std::size_t i) const { return i + (seen_idat_ && !layout_.default_in_animation ? 1 : 0); }

  void check_last_frame_has_data() const {
    if (frame_after_idat_ && layout_.frames.back().data.empty())
      corrupt("frame " + std::to_string(gpuimg_frame(layout_.frames.size() - 1)) + " has no fdAT chunk");
  }

  const Bytes& file_;
  ApngLayout layout_{};
  std::uint32_t width_ = 0, height_ = 0;
  std::uint32_t frame_count_ = 0;  // acTL's; 0 until it is read
  std::uint32_t next_sequence_ = 0;
  bool seen_idat_ = false, idat_ended_ = false;
  bool frame_after_idat_ = false;  // the last fcTL follows IDAT: fdAT chunks are its data
};

}  // namespace

std::optional<ApngLayout> read_apng_layout(const Bytes& file) {
  if (!has_animation_control(file)) return std::nullopt;
  return LayoutReader(file).read();
}

}  // namespace gpuimg
