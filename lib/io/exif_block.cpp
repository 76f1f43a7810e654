// libexif is chosen over exiv2 for a process that starts for every file:
// it is one small C library with no dependencies of its own (exiv2 brings
// libstdc++-heavy code, expat, zlib and brotli: more to load at start-up),
// Debian keeps it patched, and OSS-Fuzz fuzzes its loader.
#include "exif_block.hpp"

#include <libexif/exif-data.h>
#include <libexif/exif-log.h>
#include <libexif/exif-mem.h>
#include <libexif/exif-utils.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "header_dims.hpp"

namespace gpuimg {
namespace {

// libexif finds the block behind JPEG's APP1 header, not bare.
constexpr unsigned char kExifHeader[] = {'E', 'x', 'i', 'f', 0, 0};

struct Complaints {
  bool corrupt = false;
  char first[200] = "";
};

// A maker note is the camera maker's private format, which libexif reads
// for a few makers only: its complaints there say nothing of the rest.
void on_log(ExifLog*, ExifLogCode code, const char* domain, const char* format, va_list args, void* data) {
  auto* c = static_cast<Complaints*>(data);
  if (code != EXIF_LOG_CODE_CORRUPT_DATA && code != EXIF_LOG_CODE_NO_MEMORY) return;  // debug messages
  if (domain && std::strncmp(domain, "ExifMnote", 9) == 0) return;
  if (!c->corrupt) {
    std::vsnprintf(c->first, sizeof c->first, format, args);
    // The warning's line ends in gpuimg's own words: libexif's full stop goes.
    const std::size_t n = std::strlen(c->first);
    if (n > 0 && c->first[n - 1] == '.') c->first[n - 1] = '\0';
  }
  c->corrupt = true;
}

using ExifDataPtr = std::unique_ptr<ExifData, void (*)(ExifData*)>;
using ExifLogPtr = std::unique_ptr<ExifLog, void (*)(ExifLog*)>;

// The block loaded as written: libexif's defaults would add the tags the
// standard calls mandatory and drop those it does not know, and judge a
// block other than the file's.
struct Loaded {
  Complaints complaints;
  ExifLogPtr log{exif_log_new(), exif_log_unref};
  ExifDataPtr data{exif_data_new(), exif_data_unref};

  explicit Loaded(const std::vector<std::uint8_t>& exif) {
    if (!log || !data) throw std::bad_alloc();
    exif_log_set_func(log.get(), on_log, &complaints);
    exif_data_log(data.get(), log.get());
    exif_data_unset_option(data.get(), EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_unset_option(data.get(), EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS);
    std::vector<unsigned char> framed(kExifHeader, kExifHeader + sizeof kExifHeader);
    framed.insert(framed.end(), exif.begin(), exif.end());
    exif_data_load_data(data.get(), framed.data(), static_cast<unsigned int>(framed.size()));
  }

  // Whether libexif found anything at all: a block too short for a header,
  // or whose IFD0 lies past its end, loads silently as nothing.
  bool empty() const {
    for (const ExifContent* ifd : data->ifd)
      if (ifd && ifd->count > 0) return false;
    return data->size == 0;  // the thumbnail
  }

  // IFD0's integer tag: EXIF makes each a SHORT; some writers make it a
  // LONG, which ImageMagick and Pillow read too. Absent: nullopt; of
  // another type or without a value: 0.
  std::optional<long> ifd0_integer(ExifTag tag) const {
    const ExifEntry* e = exif_content_get_entry(data->ifd[EXIF_IFD_0], tag);
    if (!e) return std::nullopt;
    if (e->components < 1 || !e->data) return 0;
    const ExifByteOrder order = exif_data_get_byte_order(data.get());
    if (e->format == EXIF_FORMAT_SHORT && e->size >= 2) return exif_get_short(e->data, order);
    if (e->format == EXIF_FORMAT_LONG && e->size >= 4) return static_cast<long>(exif_get_long(e->data, order));
    return 0;
  }

  long orientation() const { return ifd0_integer(EXIF_TAG_ORIENTATION).value_or(0); }

  // TIFF's resolution tags as EXIF repeats them in IFD0: two RATIONALs and
  // a unit, 1 none, 2 inch (also where absent), 3 centimetre.
  void resolution(ExifReading& out) const {
    ExifContent* ifd0 = data->ifd[EXIF_IFD_0];
    const ExifEntry* x = exif_content_get_entry(ifd0, EXIF_TAG_X_RESOLUTION);
    const ExifEntry* y = exif_content_get_entry(ifd0, EXIF_TAG_Y_RESOLUTION);
    if (!x && !y) return;
    const ExifByteOrder order = exif_data_get_byte_order(data.get());
    const auto value = [&](const ExifEntry* e) {
      if (!e || e->format != EXIF_FORMAT_RATIONAL || e->components < 1 || !e->data || e->size < 8) return 0.0;
      const ExifRational r = exif_get_rational(e->data, order);
      return r.denominator == 0 ? 0.0 : double(r.numerator) / r.denominator;
    };
    const double xv = value(x), yv = value(y);
    const long u = ifd0_integer(EXIF_TAG_RESOLUTION_UNIT).value_or(2);
    if (xv <= 0 || yv <= 0 || u < 1 || u > 3) {
      out.bad_resolution = true;
      return;
    }
    using U = Resolution::Unit;
    out.resolution = {u == 1 ? U::aspect : u == 2 ? U::inch : U::centimetre, xv, yv};
  }
};

std::vector<ExifItem> items_of(const ExifContent* ifd) {
  std::vector<ExifItem> items;
  for (unsigned i = 0; ifd && i < ifd->count; ++i) {
    const ExifEntry* e = ifd->entries[i];
    if (!e) continue;
    ExifItem item{static_cast<std::uint16_t>(e->tag), static_cast<std::uint16_t>(e->format),
                  static_cast<std::uint32_t>(e->components), {}};
    if (e->data) item.value.assign(e->data, e->data + e->size);
    items.push_back(std::move(item));
  }
  return items;
}

using ExifMemPtr = std::unique_ptr<ExifMem, void (*)(ExifMem*)>;

void add_items(ExifMem* mem, ExifContent* ifd, std::vector<ExifItem> items) {
  std::sort(items.begin(), items.end(), [](const ExifItem& a, const ExifItem& b) { return a.tag < b.tag; });
  for (const ExifItem& item : items) {
    const std::unique_ptr<ExifEntry, void (*)(ExifEntry*)> e(exif_entry_new_mem(mem), exif_entry_unref);
    if (!e) throw std::bad_alloc();
    e->tag = static_cast<ExifTag>(item.tag);
    e->format = static_cast<ExifFormat>(item.type);
    e->components = item.count;
    if (!item.value.empty()) {
      e->data = static_cast<unsigned char*>(exif_mem_alloc(mem, static_cast<ExifLong>(item.value.size())));
      if (!e->data) throw std::bad_alloc();
      std::copy(item.value.begin(), item.value.end(), e->data);
      e->size = static_cast<unsigned int>(item.value.size());
    }
    exif_content_add_entry(ifd, e.get());  // a second entry of a tag is refused: the first stays
  }
}

ExifReading corrupt(std::string problem) {
  ExifReading r;
  r.corrupt = true;
  r.problem = std::move(problem);
  return r;
}

}  // namespace

ExifReading read_exif(const std::vector<std::uint8_t>& exif) {
  ExifReading out;
  if (exif.size() > 0xffffffffu - sizeof kExifHeader) return corrupt("larger than 4 GiB");  // libexif takes an unsigned int
  const Loaded loaded(exif);
  if (loaded.complaints.corrupt) return corrupt(std::string("libexif: ") + loaded.complaints.first);
  if (loaded.empty()) return corrupt("no entry libexif can read");
  if (const long v = loaded.orientation(); v >= 1 && v <= 8) out.orientation = static_cast<int>(v);
  loaded.resolution(out);
  return out;
}

// The walk libexif's orientation() makes, over IFD0 alone and bounded by
// the block: TIFF's byte order, IFD0's offset, its entries of 12 bytes, the
// one tagged 0x0112 of type SHORT (3) or LONG (4) and at least one value,
// which sits in the entry itself.
std::vector<std::uint8_t> exif_upright(std::vector<std::uint8_t> exif) {
  const std::size_t n = exif.size();
  if (n < 8 || exif[0] != exif[1] || (exif[0] != 'I' && exif[0] != 'M')) return exif;
  const bool little = exif[0] == 'I';
  const auto read = [&](std::size_t at, int bytes) {
    return static_cast<std::uint32_t>(detail::read_uint(exif, at, bytes, !little));
  };
  const std::uint32_t ifd = read(4, 4);
  if (ifd > n - 2) return exif;
  const std::size_t entries = std::min<std::size_t>(read(ifd, 2), (n - ifd - 2) / 12);
  for (std::size_t i = 0; i < entries; ++i) {
    const std::size_t e = ifd + 2 + 12 * i;
    const std::uint32_t type = read(e, 2) == 0x0112 ? read(e + 2, 2) : 0;
    if ((type != 3 && type != 4) || read(e + 4, 4) < 1) continue;
    const int bytes = type == 3 ? 2 : 4;
    for (int k = 0; k < bytes; ++k) exif[e + 8 + k] = k == (little ? 0 : bytes - 1) ? 1 : 0;
    break;
  }
  return exif;
}

ExifEntries exif_entries(const std::vector<std::uint8_t>& exif) {
  ExifEntries out;
  if (exif.size() > 0xffffffffu - sizeof kExifHeader) return out;
  const Loaded loaded(exif);
  const ExifData* d = loaded.data.get();
  out.big_endian = exif_data_get_byte_order(loaded.data.get()) == EXIF_BYTE_ORDER_MOTOROLA;
  out.image = items_of(d->ifd[EXIF_IFD_0]);
  out.exif = items_of(d->ifd[EXIF_IFD_EXIF]);
  out.gps = items_of(d->ifd[EXIF_IFD_GPS]);
  out.interoperability = d->ifd[EXIF_IFD_INTEROPERABILITY] ? d->ifd[EXIF_IFD_INTEROPERABILITY]->count : 0;
  out.thumbnail = d->size > 0 || (d->ifd[EXIF_IFD_1] && d->ifd[EXIF_IFD_1]->count > 0);
  return out;
}

std::vector<std::uint8_t> exif_saved(const ExifEntries& entries) {
  const ExifMemPtr mem(exif_mem_new_default(), exif_mem_unref);
  if (!mem) throw std::bad_alloc();
  const ExifDataPtr data(exif_data_new_mem(mem.get()), exif_data_unref);
  if (!data) throw std::bad_alloc();
  exif_data_set_byte_order(data.get(), entries.big_endian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL);
  add_items(mem.get(), data->ifd[EXIF_IFD_0], entries.image);
  add_items(mem.get(), data->ifd[EXIF_IFD_EXIF], entries.exif);
  add_items(mem.get(), data->ifd[EXIF_IFD_GPS], entries.gps);
  unsigned char* saved = nullptr;
  unsigned int size = 0;
  exif_data_save_data(data.get(), &saved, &size);
  const std::unique_ptr<unsigned char, void (*)(unsigned char*)> held(saved, [](unsigned char* p) { std::free(p); });
  if (!saved || size < sizeof kExifHeader) throw std::bad_alloc();  // libexif saves nothing only when out of memory
  return std::vector<std::uint8_t>(saved + sizeof kExifHeader, saved + size);
}

}  // namespace gpuimg
