#include "expr/kept_expressions.hpp"

#include <deque>
#include <mutex>
#include <stdexcept>

#include "expr/compile.hpp"

namespace gpuimg {
namespace {

// A deque: references to its elements stay valid as it grows.
struct Kept {
  std::mutex mutex;
  std::deque<KeptExpression> expressions;
};

Kept& kept() {
  static Kept k;
  return k;
}

}  // namespace

ExpressionRef keep_expression(const std::string& text) {
  Kept& k = kept();
  {
    const std::lock_guard<std::mutex> lock(k.mutex);
    for (std::size_t i = 0; i < k.expressions.size(); ++i)
      if (k.expressions[i].text == text) return {static_cast<std::int32_t>(i)};
  }
  KeptExpression compiled{text, expr::compile_map(text)};
  const std::lock_guard<std::mutex> lock(k.mutex);
  // Another thread may have kept it while this one compiled.
  for (std::size_t i = 0; i < k.expressions.size(); ++i)
    if (k.expressions[i].text == text) return {static_cast<std::int32_t>(i)};
  k.expressions.push_back(std::move(compiled));
  return {static_cast<std::int32_t>(k.expressions.size() - 1)};
}

const KeptExpression& kept_expression(ExpressionRef ref) {
  Kept& k = kept();
  const std::lock_guard<std::mutex> lock(k.mutex);
  if (ref.handle < 0 || static_cast<std::size_t>(ref.handle) >= k.expressions.size())
    throw std::logic_error("no expression has this handle");
  return k.expressions[static_cast<std::size_t>(ref.handle)];
}

}  // namespace gpuimg
