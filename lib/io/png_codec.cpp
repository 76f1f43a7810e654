// Reading PNG through libpng directly: OpenCV cannot read gray+alpha and
// lets libpng print warnings; stb_image ignores CRCs. This is the only file
// that includes png.h; png_encoder.cpp writes PNG on zlib alone.
#include <png.h>

#include <algorithm>
#include <cctype>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <new>

#include "backends.hpp"

namespace gpuimg {
namespace {

constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

struct PngState {
  const Bytes* in = nullptr;
  std::size_t pos = 0;
  bool truncated = false;
  char message[200] = "";  // a fixed buffer: the error handler must not allocate or throw
};

// libpng expects its error handler never to return; longjmp back into
// png_guarded() is the only way out of its C frames.
[[noreturn]] void on_error(png_structp png, png_const_charp msg) {
  auto* state = static_cast<PngState*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof state->message, "%s", msg);
  png_longjmp(png, 1);
}

// Warnings (bad ancillary-chunk CRCs, extra compressed data, ...) describe
// files libpng still decodes correctly, and nothing may reach the terminal.
void on_warning(png_structp, png_const_charp) {}

// Every chunk's length is checked against the bytes that follow it before
// libpng sees the file: libpng allocates an ancillary chunk's claimed
// length before reading it, so 57 bytes claiming 2^30 would cost a GiB.
// A chunk of no valid type is left for libpng to name.
void check_chunk_lengths(const Bytes& file) {
  for (std::uint64_t pos = 8;;) {
    if (file.size() - pos < 8) throw CodecFailure("truncated PNG (no IEND chunk)");
    const std::string type(file.begin() + static_cast<std::ptrdiff_t>(pos + 4), file.begin() + static_cast<std::ptrdiff_t>(pos + 8));
    if (!std::all_of(type.begin(), type.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); })) return;
    const std::uint64_t len = detail::read_uint(file, pos, 4, true);
    const std::uint64_t left = file.size() - pos - 8;
    if (len + 4 > left) {
      throw CodecFailure("truncated PNG (chunk '" + type + "' at byte " + std::to_string(pos) + " claims " +
                         std::to_string(len) + " bytes; " + std::to_string(left) + " follow)");
    }
    if (type == "IEND") return;
    pos += 12 + len;
  }
}

// Ancillary chunks (text, ICC profiles, ...) held in memory at once, each
// after decompression: a zTXt of a few bytes can inflate without end.
constexpr png_alloc_size_t kChunkMemoryMax = png_alloc_size_t{16} << 20;

// Ancillary chunks gpuimg makes no use of, skipped unread rather than
// parsed: libpng inflates every text chunk (twice), so a 15 MB file of a
// thousand zTXt chunks cost 255 s. Only tRNS changes the pixels.
constexpr png_byte kIgnoredChunks[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0sTER\0tEXt\0tIME\0zTXt";
constexpr int kIgnoredChunkCount = static_cast<int>(sizeof kIgnoredChunks / 5);

void read_bytes(png_structp png, png_bytep dst, std::size_t n) {
  auto* state = static_cast<PngState*>(png_get_io_ptr(png));
  if (n > state->in->size() - state->pos) {
    state->truncated = true;
    png_error(png, "truncated");
  }
  std::memcpy(dst, state->in->data() + state->pos, n);
  state->pos += n;
}

// Runs `body` (libpng calls only: a longjmp skips destructors) and reports
// whether it finished rather than failing through on_error.
template <class Body>
bool png_guarded(png_structp png, Body&& body) {
  if (setjmp(png_jmpbuf(png))) return false;
  body();
  return true;
}

// Holds the libpng read structs and the state their callbacks share, which
// must not move once libpng has a pointer to it.
struct PngHandle {
  PngState state;
  png_structp png = nullptr;
  png_infop info = nullptr;

  PngHandle() {
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    if (png) info = png_create_info_struct(png);
    if (!info) {
      png_destroy_read_struct(&png, &info, nullptr);
      throw std::bad_alloc();
    }
  }
  PngHandle(const PngHandle&) = delete;
  PngHandle& operator=(const PngHandle&) = delete;
  ~PngHandle() { png_destroy_read_struct(&png, &info, nullptr); }
};

// Every PNG comes out as 8- or 16-bit gray, gray+alpha, RGB or RGBA;
// palette images first as one index a byte, expanded by expand_palette().
// Returns the number of interlace passes to read.
int set_read_transforms(png_structp png, png_infop info) {
  const int color_type = png_get_color_type(png, info);
  const int bit_depth = png_get_bit_depth(png, info);
  if (color_type == PNG_COLOR_TYPE_PALETTE) {
    png_set_packing(png);
  } else {
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  }
  if (bit_depth == 16 && kLittleEndianHost) png_set_swap(png);  // PNG stores 16-bit samples big-endian
  return png_set_interlace_handling(png);
}

// libpng's own expansion turns an index past the palette's end into black
// without a word (its check for it runs only when writing): here it is an
// error. Entries with a tRNS value get it as alpha, the rest 255.
struct Palette {
  png_colorp colours = nullptr;
  int size = 0;
  png_bytep alpha = nullptr;
  int alpha_size = 0;
};

int expanded_channels(const Palette& p) { return p.alpha_size > 0 ? 4 : 3; }

Image expand_palette(const Image& indices, const Palette& p) {
  Image img(indices.width, indices.height, expanded_channels(p), Depth::U8);
  std::uint8_t* out = img.data.data();
  for (const std::uint8_t index : indices.data) {
    if (index >= p.size) throw CodecFailure("corrupt PNG (palette index " + std::to_string(index) + " is past the palette's " +
                                            std::to_string(p.size) + " entries)");
    *out++ = p.colours[index].red;
    *out++ = p.colours[index].green;
    *out++ = p.colours[index].blue;
    if (img.channels == 4) *out++ = index < p.alpha_size ? p.alpha[index] : 255;
  }
  return img;
}

[[noreturn]] void fail_read(const PngState& state) {
  if (state.truncated) throw CodecFailure("truncated PNG");
  throw CodecFailure(std::string("corrupt PNG (") + state.message + ")");
}

// What libpng will give: IHDR and the chunks before the first IDAT, read
// into `h` with the transforms set. A palette image's channels and depth
// are its indices'; expand_palette makes them colours.
struct PngHeader {
  png_uint_32 width = 0, height = 0;
  int channels = 0, bit_depth = 0, passes = 0;
  Palette palette;
};

PngHeader read_header(PngHandle& h, const Bytes& file, std::uint64_t max_pixels) {
  check_chunk_lengths(file);
  h.state.in = &file;
  // libpng's own default cap is 1,000,000 per side; make it agree with the
  // caller's pixel limit (already checked from IHDR) instead.
  const auto side_limit = static_cast<png_uint_32>(std::min<std::uint64_t>(max_pixels, PNG_UINT_31_MAX));
  PngHeader out;
  const bool header_read = png_guarded(h.png, [&] {
    png_set_read_fn(h.png, &h.state, read_bytes);
    png_set_user_limits(h.png, side_limit, side_limit);
    png_set_chunk_malloc_max(h.png, kChunkMemoryMax);
    png_set_keep_unknown_chunks(h.png, PNG_HANDLE_CHUNK_NEVER, kIgnoredChunks, kIgnoredChunkCount);
    png_read_info(h.png, h.info);
    out.passes = set_read_transforms(h.png, h.info);
    png_read_update_info(h.png, h.info);
    out.width = png_get_image_width(h.png, h.info);
    out.height = png_get_image_height(h.png, h.info);
    out.channels = png_get_channels(h.png, h.info);
    out.bit_depth = png_get_bit_depth(h.png, h.info);
    if (png_get_color_type(h.png, h.info) == PNG_COLOR_TYPE_PALETTE) {
      png_get_PLTE(h.png, h.info, &out.palette.colours, &out.palette.size);
      if (png_get_valid(h.png, h.info, PNG_INFO_tRNS))
        png_get_tRNS(h.png, h.info, &out.palette.alpha, &out.palette.alpha_size, nullptr);
    }
  });
  if (!header_read) fail_read(h.state);
  return out;
}

}  // namespace

Image decode_png(const Bytes& file, std::uint64_t max_pixels) {
  PngHandle h;
  const PngHeader header = read_header(h, file, max_pixels);
  const png_uint_32 height = header.height;
  Image img(static_cast<int>(header.width), static_cast<int>(height), header.channels,
            header.bit_depth == 16 ? Depth::U16 : Depth::U8);
  // Row by row into the image, each interlace pass refining rows already
  // there: no array of row pointers, which for a 1-pixel-wide image would
  // be 8 times the pixels. png_read_end reads on to IEND, so a cut after
  // the pixels or a bad CRC in the last IDAT is an error too.
  const bool pixels_read = png_guarded(h.png, [&] {
    for (int pass = 0; pass < header.passes; ++pass) {
      for (png_uint_32 y = 0; y < height; ++y) png_read_row(h.png, img.data.data() + y * img.row_bytes(), nullptr);
    }
    png_read_end(h.png, nullptr);
  });
  if (!pixels_read) fail_read(h.state);
  return header.palette.colours ? expand_palette(img, header.palette) : img;
}

ImageShape png_decoded_shape(const Bytes& file) {
  PngHandle h;
  const PngHeader header = read_header(h, file, PNG_UINT_31_MAX);
  const int channels = header.palette.colours ? expanded_channels(header.palette) : header.channels;
  return ImageShape{header.width, header.height, channels, header.bit_depth == 16 ? Depth::U16 : Depth::U8};
}

std::string libpng_version() { return std::string("libpng ") + png_get_libpng_ver(nullptr); }

}  // namespace gpuimg
