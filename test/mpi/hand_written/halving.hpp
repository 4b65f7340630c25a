#pragma once
#include "coll/runtime.hpp"
namespace collc {
constexpr bool halving_accepts(int ranks) noexcept { return ranks >= 1 && (ranks & (ranks - 1)) == 0; }
template <class T, class Op>
void halving(coll::Comm& comm, const T* send, T* recv, std::size_t count, Op op) {
  const int P = comm.size();
  if (!halving_accepts(P)) throw coll::Error("collc::halving: communicator size " + std::to_string(P) + " is not allowed (requires P == 2^k)");
  coll::Workspace<T, coll::XorGroup> ws(comm, coll::XorGroup(P), send, recv, count);
  int c[32], h[32], levels = 0;  // N at least halves per level, so <= 31 levels for int P
  int N = P;
  while (N > 1) {  // reduction: fold placements c..N-1 onto 0..h-1
    c[levels] = (N + 1) / 2;
    h[levels] = N / 2;
    ws.combine(c[levels], 0, h[levels], op);
    N = c[levels];
    ++levels;
  }
  for (int l = levels - 1; l >= 0; --l) ws.copy(0, c[l], h[l]);  // distribution: replay in reverse
}
template <class T>
void halving(coll::Comm& comm, const T* send, T* recv, std::size_t count) { halving(comm, send, recv, count, coll::Sum{}); }
}  // namespace collc
