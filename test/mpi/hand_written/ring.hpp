#pragma once
#include "coll/runtime.hpp"
namespace collc {
constexpr bool ring_accepts(int ranks) noexcept { return ranks >= 1; }
template <class T, class Op>
void ring(coll::Comm& comm, const T* send, T* recv, std::size_t count, Op op) {
  const int P = comm.size();
  if (!ring_accepts(P)) throw coll::Error("collc::ring: communicator size " + std::to_string(P) + " is not allowed (requires P >= 1)");
  coll::Workspace<T, coll::CyclicGroup> ws(comm, coll::CyclicGroup(P), send, recv, count);
  for (int s = 0; s + 1 < P; ++s) ws.combine(s, s + 1, 1, op);        // reduce-scatter
  for (int s = 0; s + 1 < P; ++s) ws.copy((s + P - 1) % P, s, 1);     // all-gather
}
template <class T>
void ring(coll::Comm& comm, const T* send, T* recv, std::size_t count) { ring(comm, send, recv, count, coll::Sum{}); }
}  // namespace collc
