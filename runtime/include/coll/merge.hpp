#pragma once
// The one merge of the runtime: the value from the lower rank goes first,
// so merges of adjacent rank runs fold a non-commutative operator in rank
// order (what the verifier's operator-legality proof checks).

#include <cstddef>

namespace coll {

// Merges `in`, which came from rank `from`, into acc on rank `rank`.
template <class T, class Op>
void mergeFrom(int from, int rank, const T* in, T* acc, std::size_t n, Op op) {
  if (from < rank)
    for (std::size_t i = 0; i < n; ++i) acc[i] = op(in[i], acc[i]);
  else
    for (std::size_t i = 0; i < n; ++i) acc[i] = op(acc[i], in[i]);
}

// The operator of the kinds that only move data (broadcast, gather,
// allgather, alltoall, barrier): no merge ever calls it.
struct NoMerge {
  template <class T>
  T operator()(const T& a, const T&) const {
    return a;
  }
};

}  // namespace coll
