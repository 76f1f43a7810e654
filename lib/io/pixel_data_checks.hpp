#pragma once
// Walks over pixel data, before decoding, for what a decoder would fill in
// silently: stb_image draws whatever a GIF frame's LZW data never reaches
// as the background, and takes a colour index past a TGA's colour map as
// entry 0, and one past a BMP's palette as whatever its stack held. Each walk reads the data by its decoder's
// own rules, so it refuses exactly what that decoder would invent, and
// throws CodecFailure with the problem alone. Where the data runs out the
// walk stops: the decoder reports the truncation itself.
#include <cstdint>
#include <vector>

namespace gpuimg {

// The first frame's LZW data must yield every one of the frame's pixels
// before its end code or its last sub-block. A frame smaller than the
// screen is legal: the screen around it is the background.
void check_gif_first_frame(const std::vector<std::uint8_t>& file);

// Every index of a colour-mapped TGA, raw or run-length, names an entry of
// its colour map.
void check_tga_colour_indices(const std::vector<std::uint8_t>& file);

// Every index of an uncompressed 1-, 4- or 8-bit BMP names an entry of its
// palette, as long as stb_image reads it.
void check_bmp_palette_indices(const std::vector<std::uint8_t>& file);

// The entries of a BMP's palette as stb_image reads them (bmp_rle.cpp reads
// them so too); `core_header`: the 12-byte OS/2 header.
std::int64_t bmp_palette_entries(const std::vector<std::uint8_t>& file, bool core_header);

// Throws CodecFailure("corrupt BMP (colour index 9 past the 3-entry
// palette)") where `index` is not below `entries`; `format` and `table`
// name the file's kind and its table.
void check_palette_index(unsigned index, std::int64_t entries, const char* format, const char* table);

}  // namespace gpuimg
