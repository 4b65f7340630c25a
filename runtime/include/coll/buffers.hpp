#pragma once
// Where two of a call's buffers lie against each other: the one test of
// overlap that the generated headers (coll::checkBuffers) and the drop-in
// (its requireDisjoint) both apply to MPI's rule that send and receive
// buffers be disjoint unless in place. Plain C++17, no MPI.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace coll {

// Whether p points into [base, base + size) (compared as std::less does,
// which orders unrelated pointers too). Callers pass the start of a
// buffer: where it begins decides whether it is an in-place form
// (MPI_IN_PLACE puts recv at the start of, or at a block of, send).
template <class T>
bool within(const T* p, const T* base, std::size_t size) {
  const std::less<const T*> before;
  return !before(p, base) && before(p, base + size);
}

// How many bytes [a, a + aBytes) and [b, b + bBytes) share; 0 if disjoint.
inline std::size_t overlapBytes(const void* a, std::size_t aBytes, const void* b,
                                std::size_t bBytes) {
  const std::uintptr_t x = reinterpret_cast<std::uintptr_t>(a);
  const std::uintptr_t y = reinterpret_cast<std::uintptr_t>(b);
  const std::uintptr_t from = std::max(x, y), to = std::min(x + aBytes, y + bBytes);
  return from < to ? to - from : 0;
}

}  // namespace coll
