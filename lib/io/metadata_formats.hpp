#pragma once
// Each format's part of metadata.hpp: where its files keep the ICC profile,
// the EXIF block and the XMP packet, and how much they can hold.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "metadata.hpp"

namespace gpuimg {

using Bytes = std::vector<std::uint8_t>;

// The most an ancillary chunk, or what its deflate data inflates to, may
// hold: libpng's own cap (PNG_USER_CHUNK_MALLOC_MAX), so no more is read
// than libpng reads, nor written than it would read back. A few bytes of
// deflate data can claim gigabytes.
constexpr std::size_t kMaxPngChunk = 8000000;

// png_metadata.cpp: the iCCP, eXIf, pHYs and iTXt "XML:com.adobe.xmp" chunks,
// anywhere before IEND, each checked against its CRC; a walk that meets a
// chunk cut short stops there, leaving the file's damage to the decoder.
// Writing: the same chunks, complete, for encode_png to put after IHDR.
void read_png_metadata(const Bytes& file, Metadata& out);
Bytes png_metadata_chunks(const Metadata& m);

// jpeg_metadata.cpp: APP0 "JFIF\0", APP1 "Exif\0\0", APP1 XMP and the APP2 "ICC_PROFILE"
// chunks before the first scan; the chunks must number 1 to N of one N,
// each once, and are joined in their numbers' order whatever the file's.
void read_jpeg_metadata(const Bytes& file, Metadata& out);
// What one JPEG marker segment holds after its 2 length bytes, less each
// item's own header.
constexpr std::size_t kJpegSegmentMax = 65533;
constexpr std::size_t kJpegExifMax = kJpegSegmentMax - 6;    // "Exif\0\0"
constexpr std::size_t kJpegXmpMax = kJpegSegmentMax - 29;    // "http://ns.adobe.com/xap/1.0/\0"
constexpr std::size_t kJpegIccMax = 255 * (kJpegSegmentMax - 14);  // 255 chunks after "ICC_PROFILE\0", number, count

// webp_metadata.cpp: the ICCP, EXIF and "XMP " chunks, the first of each
// (libwebpdemux); writing: an encoded WebP with them added (libwebpmux),
// unchanged where there are none. WebP caps none of them below 4 GiB.
void read_webp_metadata(const Bytes& file, Metadata& out);
Bytes webp_with_metadata(Bytes webp, const Metadata& m);

// metadata.cpp: what `format` keeps of `given` for an image of `channels`
// (given.ignored aside), each item left out said in `notes`: the ICC
// profile where it is for another colour space, an item larger than the
// format holds, and all of them in a format that holds none.
Metadata metadata_to_write(const Metadata& given, Format format, int channels, std::vector<std::string>& notes);

// The problem with a profile whose 128-byte header is missing
// or gives another length than it has; empty for one that is whole.
std::string icc_problem(const Bytes& icc);

}  // namespace gpuimg
