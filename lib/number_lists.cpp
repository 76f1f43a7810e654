#include "number_lists.hpp"

#include <deque>
#include <mutex>
#include <stdexcept>

namespace gpuimg {
namespace {

// A deque: references to its elements stay valid as it grows.
struct Lists {
  std::mutex mutex;
  std::deque<std::vector<double>> kept;
};

Lists& lists() {
  static Lists l;
  return l;
}

}  // namespace

NumberList keep_number_list(std::vector<double> numbers) {
  Lists& l = lists();
  const std::lock_guard<std::mutex> lock(l.mutex);
  const auto count = static_cast<std::int32_t>(numbers.size());
  l.kept.push_back(std::move(numbers));
  return {static_cast<std::int32_t>(l.kept.size() - 1), count};
}

const std::vector<double>& number_list(const NumberList& list) {
  Lists& l = lists();
  const std::lock_guard<std::mutex> lock(l.mutex);
  if (list.handle < 0 || static_cast<std::size_t>(list.handle) >= l.kept.size())
    throw std::logic_error("no number list has this handle");
  return l.kept[static_cast<std::size_t>(list.handle)];
}

}  // namespace gpuimg
