#include "html_report.hpp"

namespace gpuimg {
namespace {

const char* const kStyle = R"(
body { font: 14px sans-serif; margin: 1em 2em; color: #222; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
.pass { color: #080; } .fail, .error { color: #b00; font-weight: bold; }
section { margin: 2em 0; }
.view { position: relative; display: inline-block; background: #888; }
.view img { display: block; image-rendering: pixelated; }
.view .over { position: absolute; left: 0; top: 0; }
.view[data-show=expected] .over, .view[data-show=expected] .diff { display: none; }
.view[data-show=actual] .expected, .view[data-show=actual] .diff { display: none; }
.view[data-show=actual] .over { position: static; }
.view[data-show=slider] .over { clip-path: inset(0 0 0 var(--cut)); }
.view[data-show=diff] .expected, .view[data-show=diff] .over { display: none; }
.view[data-show=slider] .diff { display: none; }
button[aria-pressed=true] { font-weight: bold; }
)";

// Small images are enlarged, all of a case by one whole factor, so that
// the widest is about 512 pixels across and each pixel stays a square; the
// slider clips the output from the left up to its position.
const char* const kScript = R"(
for (const section of document.querySelectorAll('section.case')) {
  const view = section.querySelector('.view');
  const slider = section.querySelector('input[type=range]');
  const show = (what) => {
    view.dataset.show = what;
    for (const b of section.querySelectorAll('button')) b.setAttribute('aria-pressed', b.dataset.show === what);
  };
  for (const b of section.querySelectorAll('button')) b.addEventListener('click', () => show(b.dataset.show));
  slider.addEventListener('input', () => {
    view.style.setProperty('--cut', slider.value + '%');
    show('slider');
  });
  const images = [...view.querySelectorAll('img')];
  const ready = () => {
    const loaded = images.filter((img) => img.complete && img.naturalWidth);
    section.dataset.imagesLoaded = loaded.length;
    if (loaded.length < images.length) return;
    const zoom = Math.max(1, Math.floor(512 / Math.max(...images.map((img) => img.naturalWidth))));
    for (const img of images) img.style.width = img.naturalWidth * zoom + 'px';
  };
  for (const img of images) img.addEventListener('load', ready);
  ready();
  slider.dispatchEvent(new Event('input'));
}
)";

const char* outcome_word(CaseResult::Outcome o) {
  return o == CaseResult::Outcome::pass ? "pass" : o == CaseResult::Outcome::fail ? "fail" : "error";
}

std::string img(const std::string& name, const char* which) {
  return "<img class=\"" + std::string(which) + "\" alt=\"" + which + "\" src=\"" +
         xml_text(html_image_name(name, which)) + "\">";
}

std::string case_section(const CaseResult& c) {
  const std::string& name = c.golden_case->name;
  const bool diff = c.comparison && c.comparison->mismatch.empty();
  std::string out = "<section class=\"case\" id=\"case-" + xml_text(name) + "\" data-case=\"" + xml_text(name) +
                    "\">\n<h2>" + xml_text(name) + "</h2>\n<p class=\"why\">" + xml_text(case_message(c)) + "</p>\n";
  out += "<p><button data-show=\"expected\">expected</button> <button data-show=\"actual\">actual</button>";
  if (diff) out += " <button data-show=\"diff\">difference</button>";
  out += " <label>expected | actual <input type=\"range\" min=\"0\" max=\"100\" value=\"50\"></label></p>\n";
  out += "<div class=\"view\" data-show=\"slider\">" + img(name, "expected") + "<div class=\"over\">" +
         img(name, "actual") + "</div>" + (diff ? img(name, "diff") : "") + "</div>\n</section>\n";
  return out;
}

}  // namespace

std::string html_image_name(const std::string& case_name, const char* which) {
  return case_name + "." + which + ".png";
}

std::string html_report(const CheckRun& run) {
  const std::string title = "golden check " + xml_text(run.manifest->path.string());
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
                    "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" + title + "</h1>\n";
  out += "<p id=\"summary\">" + check_counts(run) + "; device " + run.device + ", " +
         xml_text(run.timestamp) + " UTC</p>\n<table>\n<tr><th>case</th><th>result</th><th>why</th></tr>\n";
  for (const CaseResult& c : run.cases) {
    const std::string name = xml_text(c.golden_case->name);
    const char* word = outcome_word(c.outcome);
    const std::string cell = c.outcome == CaseResult::Outcome::fail ? "<a href=\"#case-" + name + "\">" + name + "</a>"
                                                                    : name;
    out += "<tr><td>" + cell + "</td><td class=\"" + word + "\">" + word + "</td><td>" + xml_text(case_message(c)) +
           "</td></tr>\n";
  }
  out += "</table>\n";
  for (const CaseResult& c : run.cases)
    if (c.outcome == CaseResult::Outcome::fail) out += case_section(c);
  return out + "<script>" + kScript + "</script>\n</body>\n</html>\n";
}

}  // namespace gpuimg
