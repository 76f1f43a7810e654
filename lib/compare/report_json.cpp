#include "report_json.hpp"

#include <cmath>

#include "printable.hpp"

namespace gpuimg {

// printable() first: a file name may hold any bytes, and JSON must be
// UTF-8. What it returns is UTF-8 with no control character, so only '"'
// and '\\' remain to escape; the name reads back from the printable form.
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char ch : printable(s)) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// JSON has no infinity or NaN: an infinite PSNR (identical samples) and an
// SSIM not computed are null.
std::string json_number(double v) { return std::isfinite(v) ? number_text(v) : "null"; }

namespace {

std::string image_json(const std::string& path, const Image& img) {
  return "{\"path\": " + json_string(path) + ", \"width\": " + std::to_string(img.width) +
         ", \"height\": " + std::to_string(img.height) + ", \"channels\": " + std::to_string(img.channels) +
         ", \"depth\": " + std::to_string(8 * bytes_per_sample(img.depth)) + "}";
}

}  // namespace

std::string metrics_json(const ChannelMetrics& m) {
  return "\"max_diff\": " + std::to_string(m.max_diff) + ", \"differing_pixels\": " + std::to_string(m.differing) +
         ", \"differing_share\": " + json_number(m.differing_share) + ", \"mae\": " + json_number(m.mae) +
         ", \"rmse\": " + json_number(m.rmse) + ", \"psnr\": " + json_number(m.psnr) +
         ", \"ssim\": " + json_number(m.ssim);
}

std::string thresholds_json(const Thresholds& limits) {
  const Thresholds shown = limits.empty() ? Thresholds{{find_threshold("max-diff"), 0}} : limits;
  std::string out = "{";
  for (std::size_t i = 0; i < shown.size(); ++i)
    out += (i ? ", " : "") + json_string(shown[i].spec->name) + ": " + json_number(shown[i].limit);
  return out + "}";
}

std::string report_json(const CompareReport& r) {
  const Comparison& c = *r.comparison;
  const std::vector<std::string> why = failures(c, *r.thresholds);
  const char* result = c.identical() ? "identical" : why.empty() ? "within" : "different";

  std::string out = "{\n  \"schema\": " + json_string(kCompareSchema) + ",\n";
  out += "  \"result\": " + json_string(result) + ",\n";
  out += std::string("  \"pass\": ") + (why.empty() ? "true" : "false") + ",\n";
  out += "  \"expected\": " + image_json(r.expected_path, *r.expected) + ",\n";
  out += "  \"actual\": " + image_json(r.actual_path, *r.actual) + ",\n";
  out += "  \"device\": " + json_string(r.device) + ",\n";
  out += "  \"mismatch\": " + (c.mismatch.empty() ? std::string("null") : json_string(c.mismatch)) + ",\n";

  out += "  \"thresholds\": " + thresholds_json(*r.thresholds) + ",\n";
  out += "  \"scope\": {\"threshold\": " + (r.scope->threshold ? json_number(*r.scope->threshold) : "null") +
         ", \"ignore_aa\": " + (r.scope->ignore_aa ? "true" : "false") +
         ", \"anti_aliased_pixels\": " + std::to_string(c.anti_aliased.size()) + "},\n  \"failures\": [";
  for (std::size_t i = 0; i < why.size(); ++i) out += (i ? ", " : "") + json_string(why[i]);
  out += "],\n  \"notes\": [";
  for (std::size_t i = 0; i < c.notes.size(); ++i) out += (i ? ", " : "") + json_string(c.notes[i]);
  out += "],\n";

  if (!c.mismatch.empty()) return out + "  \"overall\": null,\n  \"channels\": [],\n  \"bbox\": null\n}\n";
  out += "  \"overall\": {" + metrics_json(c.overall) + "},\n  \"channels\": [";
  for (std::size_t i = 0; i < c.channels.size(); ++i)
    out += std::string(i ? "," : "") + "\n    {\"name\": " +
           json_string(channel_name(static_cast<int>(i), static_cast<int>(c.channels.size()))) + ", " +
           metrics_json(c.channels[i]) + "}";
  out += "\n  ],\n  \"bbox\": ";
  if (c.box.empty()) return out + "null\n}\n";
  return out + "{\"x\": " + std::to_string(c.box.x0) + ", \"y\": " + std::to_string(c.box.y0) +
         ", \"width\": " + std::to_string(c.box.x1 - c.box.x0 + 1) +
         ", \"height\": " + std::to_string(c.box.y1 - c.box.y0 + 1) + "}\n}\n";
}

}  // namespace gpuimg
