#pragma once
// The median of a window by selection networks: nothing but min and max,
// so exact for any sample type and free of branches. The same code runs on
// the CPU backend, one sample per call in loops the compiler vectorises
// (lib/cpu_median.cpp), and in the CUDA kernels, two 16-bit samples a word
// (median_networks.cu). `Ops` says what min and max are: lo(a, b) and
// hi(a, b), lane by lane; median9 also takes lo3, hi3 and mid3.
#include <type_traits>
#include <utility>

#include "pixel.hpp"

// The networks are templates that call themselves once per round; each
// call must be inlined into the next, so that the whole network is one
// stretch of straight-line code (which GCC's vectoriser needs, and nvcc's
// registers).
#if defined(__CUDACC__)
#define GPUIMG_SELECT __host__ __device__ __forceinline__
#else
#define GPUIMG_SELECT inline __attribute__((always_inline))
#endif

namespace gpuimg {

template <class V, int N> struct Values {
  V v[N];
};

template <int I> using Index = std::integral_constant<int, I>;

// Forgetful selection: hold (N + 3) / 2 of the N values, drop the smallest
// and the largest, take in the next value, and so on. The held values
// always outnumber those not yet taken in by three, so the smallest held one
// lies below the middle of everything not dropped and the largest above it:
// dropping one of each keeps that middle where it was. When every value is
// in, three are held, and their middle is the median.
//
// get(Index<I>{}) is the I-th value of the window, I from 0 to N - 1. A
// caller with two windows that share their first `Shared` values runs
// take_shared once and finish once for each window.
template <class V, class Ops> struct ForgetfulSelection {
  template <int N> static constexpr int kHeld = (N + 3) / 2;

  template <int N, class Get> GPUIMG_SELECT static V median(const Get& get) {
    return finish<N, kHeld<N>>(load(get, std::make_integer_sequence<int, kHeld<N>>{}), get);
  }

  // The held values once the first `Shared` have been taken in.
  template <int N, int Shared, class Get>
  GPUIMG_SELECT static Values<V, 2 * kHeld<N> - Shared> take_shared(const Get& get) {
    static_assert(Shared >= kHeld<N> && Shared < N, "the shared values fill the first hold");
    return advance<kHeld<N>, kHeld<N>, Shared>(load(get, std::make_integer_sequence<int, kHeld<N>>{}), get);
  }

  // The median from values held after the first `Taken`, the rest from get.
  template <int N, int Taken, int S, class Get>
  GPUIMG_SELECT static V finish(const Values<V, S>& held, const Get& get) {
    return drop_extremes(advance<S, Taken, N>(held, get)).v[0];
  }

 private:
  template <class Get, int... I>
  GPUIMG_SELECT static Values<V, sizeof...(I)> load(const Get& get, std::integer_sequence<int, I...>) {
    return {{get(Index<I>{})...}};
  }

  // Rounds until `Next` reaches `Stop`: drop two, take in value Next.
  template <int S, int Next, int Stop, class Get>
  GPUIMG_SELECT static Values<V, S - (Stop - Next)> advance(const Values<V, S>& held, const Get& get) {
    if constexpr (Next == Stop)
      return held;
    else
      return advance<S - 1, Next + 1, Stop>(
          append(drop_extremes(held), get(Index<Next>{}), std::make_integer_sequence<int, S - 2>{}), get);
  }

  template <int S, int... I>
  GPUIMG_SELECT static Values<V, S + 1> append(const Values<V, S>& a, V x, std::integer_sequence<int, I...>) {
    return {{a.v[I]..., x}};
  }

  // The S values less their smallest and largest, in 3S - 6 operations
  // (3S - 5 for odd S): sort the pairs, then run the smallest down the
  // lower halves and the largest down the upper halves, each step keeping
  // the one it passes over. An odd value out joins both runs.
  template <int S> GPUIMG_SELECT static Values<V, S - 2> drop_extremes(Values<V, S> a) {
    static_assert(S >= 3, "forgetful selection holds at least three values");
    constexpr int pairs = S / 2, run = pairs + S % 2;
    sort_pairs(a, std::make_integer_sequence<int, pairs>{});
    run_down<S, pairs, run, 1, true>(a, a.v[0]);
    run_down<S, pairs, run, 1, false>(a, a.v[1]);
    return tail(a, std::make_integer_sequence<int, S - 2>{});
  }

  template <int S, int... I> GPUIMG_SELECT static void sort_pairs(Values<V, S>& a, std::integer_sequence<int, I...>) {
    (sort_pair(a.v[2 * I], a.v[2 * I + 1]), ...);
  }

  GPUIMG_SELECT static void sort_pair(V& a, V& b) {
    const V low = Ops::lo(a, b);
    b = Ops::hi(a, b);
    a = low;
  }

  // Step K of the run of the smallest (Low) or the largest: `carried` meets
  // the K-th lower (upper) half and leaves the other of the two behind.
  template <int S, int Pairs, int Run, int K, bool Low> GPUIMG_SELECT static void run_down(Values<V, S>& a, V carried) {
    if constexpr (K < Run) {
      constexpr int i = K < Pairs ? 2 * K + (Low ? 0 : 1) : S - 1;
      const V met = a.v[i];
      a.v[i] = Low ? Ops::hi(carried, met) : Ops::lo(carried, met);
      if constexpr (K + 1 < Run)
        run_down<S, Pairs, Run, K + 1, Low>(a, Low ? Ops::lo(carried, met) : Ops::hi(carried, met));
    }
  }

  // Slots 0 and 1 started the two runs: what is left is everything after them.
  template <int S, int... I>
  GPUIMG_SELECT static Values<V, S - 2> tail(const Values<V, S>& a, std::integer_sequence<int, I...>) {
    return {{a.v[I + 2]...}};
  }
};

// The 3x3 median from its three columns, each sorted: the middle of (the
// largest of the lows, the middle of the middles, the smallest of the highs).
// A neighbouring window shares two of the sorted columns.
template <class V> struct SortedColumn {
  V lo, mid, hi;
};

template <class V, class Ops> GPUIMG_SELECT SortedColumn<V> sort_column(V a, V b, V c) {
  return {Ops::lo3(a, b, c), Ops::mid3(a, b, c), Ops::hi3(a, b, c)};
}

template <class V, class Ops>
GPUIMG_SELECT V median9(const SortedColumn<V>& l, const SortedColumn<V>& m, const SortedColumn<V>& r) {
  return Ops::mid3(Ops::hi3(l.lo, m.lo, r.lo), Ops::mid3(l.mid, m.mid, r.mid), Ops::lo3(l.hi, m.hi, r.hi));
}

// Min and max of plain samples, for the CPU backend and the tests.
template <class T> struct ScalarMinMax {
  GPUIMG_SELECT static T lo(T a, T b) { return b < a ? b : a; }
  GPUIMG_SELECT static T hi(T a, T b) { return b < a ? a : b; }
  GPUIMG_SELECT static T lo3(T a, T b, T c) { return lo(lo(a, b), c); }
  GPUIMG_SELECT static T hi3(T a, T b, T c) { return hi(hi(a, b), c); }
  GPUIMG_SELECT static T mid3(T a, T b, T c) { return hi(lo(a, b), lo(hi(a, b), c)); }
};

}  // namespace gpuimg
