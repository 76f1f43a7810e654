#pragma once
// The codec libraries behind codec.cpp, one translation unit each, so each
// library's headers (and its setjmp or macro habits) stay in one file.
// They work on bytes in memory and throw CodecFailure with the problem
// alone; codec.cpp adds the path by rethrowing as InputError / OutputError.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "codec.hpp"
#include "header_dims.hpp"
#include "image.hpp"
#include "metadata.hpp"
#include "probe.hpp"
#include "sniff.hpp"

namespace gpuimg {

using Bytes = std::vector<std::uint8_t>;

struct CodecFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws CodecFailure("image is WxH (N pixels), over the limit of M set by --max-pixels").
void check_pixel_limit(Dims dims, std::uint64_t max_pixels);

// A TIFF is decoded a tile or strip at a time, through a buffer beside the
// image: throws CodecFailure where one `block` is larger than both `image`
// and 2^22 pixels.
void check_tiff_block_size(Dims block, Dims image);

// The *_decoded_shape functions (gpuimg info): what decoding the file (its
// first frame or page) would give, read from its headers by the decoder's
// own rules, no pixel decoded; CodecFailure where the decoder would refuse
// those headers.

// png_codec.cpp: libpng, in every build. (Writing: png_encoder.hpp.)
Image decode_png(const Bytes& file, std::uint64_t max_pixels);
ImageShape png_decoded_shape(const Bytes& file);
std::string libpng_version();

// jpeg_codec.cpp: libjpeg(-turbo), in every build. Decodes to 8-bit gray or
// RGB (CMYK and YCCK converted by inverted_cmyk_to_rgb()); refuses what
// libjpeg warns about. Encodes 8-bit gray or RGB, RGB's chroma sampled as
// `subsample` says, with the metadata given (each item within what its
// segments hold: metadata_formats.hpp).
Image decode_jpeg(const Bytes& file, std::uint64_t max_pixels);
ImageShape jpeg_decoded_shape(const Bytes& file);
Bytes encode_jpeg(const Image& img, int quality, JpegSubsample subsample, const Metadata& metadata = {});
std::string libjpeg_version();

// psd_codec.cpp: the merged image of a grayscale or RGB PSD, 8- or 16-bit,
// raw or PackBits; alpha from the next plane, its white matte removed.
Image decode_psd(const Bytes& file, std::uint64_t max_pixels);
// What decode_psd would give, and the least bytes a whole file of it needs;
// nullopt where decode_psd refuses the header.
std::optional<ImageShape> psd_shape(const Bytes& file);

// stb_codec.cpp: stb_image decodes BMP, PNM (P5, P6), TGA and GIF;
// stb_image_write encodes BMP and TGA. Encoders take 8-bit images only.
Image decode_with_stb(const Bytes& file, Format format, std::uint64_t max_pixels);
// A BMP's sides that stb_image refuses, refused in the header's words
// (stb's own reason names the last format it went on to try: "not GIF").
void check_bmp_sides(const Bytes& file);
// Frame `index` of a GIF, RGBA 8-bit, as stb_image draws an animation: each
// frame over those before it, by its disposal method.
Image decode_gif_frame(const Bytes& file, std::size_t index, std::uint64_t max_pixels);
// What decode_with_stb would give, from stbi_info; nullopt where stb cannot say.
std::optional<ImageShape> stb_shape(const Bytes& file);
Bytes encode_with_stb(const Image& img, Format format);
std::string stb_version();

#if GPUIMG_WITH_TIFF
// tiff_codec.cpp: libtiff. The page
// `frame` picks (frames.hpp: one of several must be picked), gray (1, 2, 4, 8, 16-bit), RGB (8, 16) or palette (1 to 8), gray
// and RGB with alpha; refuses a strip or tile that does not decode whole.
Image decode_tiff(const Bytes& file, std::uint64_t max_pixels, int frame = kNoFrame);
// Also refused: a strip or tile whose bytes pass the file's end.
ImageShape tiff_decoded_shape(const Bytes& file);
std::size_t tiff_page_count(const Bytes& file);  // at least 1
// The ICC profile (tag 34675), the XMP packet (700), the Orientation (274)
// and an EXIF block made from its tags (tiff_exif.hpp) of that page;
// nothing from a file libtiff cannot open.
void read_tiff_metadata(const Bytes& file, int frame, Metadata& out);
std::string libtiff_version();
// tiff_writer.cpp: LZW, gray, gray+alpha, RGB or RGBA, 8 or 16 bits; the
// metadata's ICC profile (tag 34675), XMP packet (700), orientation (274,
// where not 1 or where the EXIF block holds one) and EXIF as tags; what of
// the EXIF it could not carry is said in `notes`.
Bytes encode_tiff(const Image& img, const Metadata& metadata = {}, std::vector<std::string>* notes = nullptr);
#endif

// webp_codec.cpp: libwebp. Decodes a still image to RGB, or RGBA where the
// file has alpha; frame `frame` of an animation (frames.hpp: one of several
// must be picked) to RGBA, the canvas as the animation shows it then.
// Encodes 8-bit RGB or RGBA losslessly.
Image decode_webp(const Bytes& file, std::uint64_t max_pixels, int frame = kNoFrame);
// Both also refuse a file cut short.
ImageShape webp_decoded_shape(const Bytes& file);
std::size_t webp_frame_count(const Bytes& file);  // at least 1
// Lossless where quality is 0, else lossy at that quality (1..100).
Bytes encode_webp(const Image& img, int quality);
std::string libwebp_version();

// bmp_gray.cpp: a gray image as an 8-bit BMP of the 256 grays; whether
// every palette entry a BMP's decoder reads is a gray; the first channel of
// an RGB image whose channels are equal.
Bytes encode_gray_bmp(const Image& img);
bool has_gray_palette(const Bytes& file);
Image gray_of(const Image& rgb);

// bmp_rle.cpp: RLE8 and RLE4 BMPs, which stb_image refuses, to RGB.
bool is_run_length_bmp(const Bytes& file);
Image decode_bmp_rle(const Bytes& file, std::uint64_t max_pixels);
ImageShape bmp_rle_shape(const Bytes& file);

// pnm_text.cpp: P1 to P4, which stb_image refuses, by OpenCV's rules: P1,
// P2 and P4 to gray, P3 to RGB, 8-bit or (P2, P3 of a maximum over 255)
// 16-bit.
bool is_pnm_text_or_bitmap(const Bytes& file);
Image decode_pnm_text(const Bytes& file, std::uint64_t max_pixels);
// A binary PNM's (P5, P6) stated maximum, its header's numbers read as
// stb_image reads them; CodecFailure where one is missing or out of range.
std::uint64_t binary_pnm_maximum(const Bytes& file);
// Any PNM's; nullopt where stb_image cannot say (decoding says why).
std::optional<ImageShape> pnm_decoded_shape(const Bytes& file);
// The maximum M every PNM of samples (P2, P3, P5, P6) states, applied to
// samples read as written: past M, M; under M = 255, 8-bit as
// floor(v * 255 / M). A 16-bit image keeps its values (as OpenCV does).
// M = 0 is refused.
void apply_pnm_maximum(Image& img, std::uint64_t max);

// pnm_writer.cpp: binary PGM (1 channel) or PPM (3), 8 or 16 bits.
Bytes encode_pnm(const Image& img);

}  // namespace gpuimg
