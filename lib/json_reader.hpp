#pragma once
// A strict JSON reader (RFC 8259): the whole text valid UTF-8, no control
// character raw in a string, no lone surrogate in a \u escape, no trailing
// comma, nothing after the value but white space. `report merge` reads the
// shards' reports with it, and the tests every JSON gpuimg writes: what one
// lenient parser or another accepts is not the question; whether any parser
// must accept it is.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpuimg {

struct Json {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  // The member named `key`, or null where there is none (a member added
  // to a schema, absent from older documents).
  const Json* find(const std::string& key) const {
    for (const auto& [name, value] : members)
      if (name == key) return &value;
    return nullptr;
  }
  // The member named `key`; throws if there is none.
  const Json& operator[](const std::string& key) const {
    if (const Json* value = find(key)) return *value;
    throw std::runtime_error("no member '" + key + "'");
  }
};

// Throws std::runtime_error saying where and why the text is not JSON.
Json parse_json(const std::string& text);

}  // namespace gpuimg
