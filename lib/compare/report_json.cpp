#include "report_json.hpp"

#include <cmath>

#include "printable.hpp"

namespace gpuimg {
namespace {

// printable() first: a file name may hold any bytes, and JSON must be
// UTF-8. What it returns is UTF-8 with no control character, so only '"'
// and '\\' remain to escape; the name reads back from the printable form.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : printable(s)) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// JSON has no infinity: an infinite PSNR (identical samples) is null.
std::string number(double v) { return std::isfinite(v) ? number_text(v) : "null"; }

std::string image_json(const std::string& path, const Image& img) {
  return "{\"path\": " + quoted(path) + ", \"width\": " + std::to_string(img.width) +
         ", \"height\": " + std::to_string(img.height) + ", \"channels\": " + std::to_string(img.channels) +
         ", \"depth\": " + std::to_string(8 * bytes_per_sample(img.depth)) + "}";
}

std::string metrics_json(const ChannelMetrics& m) {
  return "\"max_diff\": " + std::to_string(m.max_diff) + ", \"differing_pixels\": " + std::to_string(m.differing) +
         ", \"differing_share\": " + number(m.differing_share) + ", \"mae\": " + number(m.mae) +
         ", \"rmse\": " + number(m.rmse) + ", \"psnr\": " + number(m.psnr) + ", \"ssim\": " + number(m.ssim);
}

}  // namespace

std::string report_json(const CompareReport& r) {
  const Comparison& c = *r.comparison;
  const std::vector<std::string> why = failures(c, *r.thresholds);
  const char* result = c.identical() ? "identical" : why.empty() ? "within" : "different";

  std::string out = "{\n  \"schema\": " + quoted(kCompareSchema) + ",\n";
  out += "  \"result\": " + quoted(result) + ",\n";
  out += std::string("  \"pass\": ") + (why.empty() ? "true" : "false") + ",\n";
  out += "  \"expected\": " + image_json(r.expected_path, *r.expected) + ",\n";
  out += "  \"actual\": " + image_json(r.actual_path, *r.actual) + ",\n";
  out += "  \"device\": " + quoted(r.device) + ",\n";
  out += "  \"mismatch\": " + (c.mismatch.empty() ? std::string("null") : quoted(c.mismatch)) + ",\n";

  out += "  \"thresholds\": {";
  const Thresholds shown = r.thresholds->empty() ? Thresholds{{find_threshold("max-diff"), 0}} : *r.thresholds;
  for (std::size_t i = 0; i < shown.size(); ++i)
    out += (i ? ", " : "") + quoted(shown[i].spec->name) + ": " + number(shown[i].limit);
  out += "},\n  \"failures\": [";
  for (std::size_t i = 0; i < why.size(); ++i) out += (i ? ", " : "") + quoted(why[i]);
  out += "],\n  \"notes\": [";
  for (std::size_t i = 0; i < c.notes.size(); ++i) out += (i ? ", " : "") + quoted(c.notes[i]);
  out += "],\n";

  if (!c.mismatch.empty()) return out + "  \"overall\": null,\n  \"channels\": [],\n  \"bbox\": null\n}\n";
  out += "  \"overall\": {" + metrics_json(c.overall) + "},\n  \"channels\": [";
  for (std::size_t i = 0; i < c.channels.size(); ++i)
    out += std::string(i ? "," : "") + "\n    {\"name\": " +
           quoted(channel_name(static_cast<int>(i), static_cast<int>(c.channels.size()))) + ", " +
           metrics_json(c.channels[i]) + "}";
  out += "\n  ],\n  \"bbox\": ";
  if (c.box.empty()) return out + "null\n}\n";
  return out + "{\"x\": " + std::to_string(c.box.x0) + ", \"y\": " + std::to_string(c.box.y0) +
         ", \"width\": " + std::to_string(c.box.x1 - c.box.x0 + 1) +
         ", \"height\": " + std::to_string(c.box.y1 - c.box.y0 + 1) + "}\n}\n";
}

}  // namespace gpuimg
