#pragma once
// Splits [0, n) into one contiguous band per thread and runs f(begin, end)
// on each, the calling thread taking the first band. `threads`: at most this
// many (a batch runs several images at once, each on its share of the
// cores); 0: one per hardware thread.
#include <algorithm>
#include <thread>
#include <vector>

namespace gpuimg {

template <class F> void parallel_bands(int n, int min_band, const F& f, int threads = 0) {
  const int hw = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int bands = std::max(1, std::min(hw, n / std::max(1, min_band)));
  const int step = (n + bands - 1) / bands;
  std::vector<std::thread> workers;
  for (int b = 1; b < bands && b * step < n; ++b)
    workers.emplace_back([&f, b, step, n] { f(b * step, std::min(n, (b + 1) * step)); });
  f(0, std::min(n, step));
  for (auto& t : workers) t.join();
}

}  // namespace gpuimg
