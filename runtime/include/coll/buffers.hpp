#pragma once
// A call's buffers: what each kind takes (coll::bufferRule, the one table
// of them), and where two buffers lie against each other (the one test of
// overlap that the generated headers, coll::checkBuffers, and the drop-in,
// its requireDisjoint, both apply to MPI's rule that send and receive
// buffers be disjoint unless in place). Plain C++17, no MPI.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "coll/plan.hpp"

namespace coll {

// How much a buffer holds, in blocks of the call's `count` elements.
enum class Extent : unsigned char {
  none,    // the kind has no such buffer
  block,   // count elements
  blocks,  // P * count elements, block b for (or from) rank b
};

// MPI_IN_PLACE's form of a kind, as the runtime takes it.
enum class InPlace : unsigned char {
  none,            // one buffer (broadcast) or none (barrier)
  sendIsRecv,      // send == recv
  sendIsOwnBlock,  // send == recv + rank * count: the rank's block of recv
  recvInSend,      // recv inside send (MPI's recv == send, the result at its start)
};

// What a collective kind takes as buffers, MPI's layout: the one table
// the generated headers' checks (coll::checkArguments, checkBuffers) and
// their documentation (the C++ emitter) read.
struct BufferRule {
  Extent send, recv;
  bool sendAtRootOnly;  // significant at the root only (may be null elsewhere)
  bool recvAtRootOnly;
  InPlace inPlace;
  // What a generated header says of the call's buffers, line by line
  // (the emitter prefixes "/// ").
  const char* doc;
};

constexpr BufferRule bufferRule(Kind kind) {
  switch (kind) {
    case Kind::allreduce:
      return {Extent::block, Extent::block, false, false, InPlace::sendIsRecv,
              "send, recv: count elements; every rank gets op over all ranks' values\n"
              "(in place when send == recv)."};
    case Kind::reduce_scatter:
      return {Extent::blocks, Extent::block, false, false, InPlace::recvInSend,
              "send: P * count elements, block b for rank b; recv: count elements,\n"
              "the reduction of every rank's block `rank`."};
    case Kind::allgather:
      return {Extent::block, Extent::blocks, false, false, InPlace::sendIsOwnBlock,
              "send: count elements; recv: P * count elements, block b from rank b\n"
              "(in place when send == recv + rank * count)."};
    case Kind::alltoall:
      return {Extent::blocks, Extent::blocks, false, false, InPlace::sendIsRecv,
              "send: P * count elements, block d for rank d; recv: P * count elements,\n"
              "block s from rank s (in place when send == recv)."};
    case Kind::broadcast:  // the one buffer is send: the root's is read
      return {Extent::block, Extent::none, false, false, InPlace::none,
              "buffer: count elements, the root's copied to every rank."};
    case Kind::reduce:
      return {Extent::block, Extent::block, false, true, InPlace::sendIsRecv,
              "send: count elements; recv: count elements, significant at the root\n"
              "only (may be null elsewhere; in place when send == recv)."};
    case Kind::gather:
      return {Extent::block, Extent::blocks, false, true, InPlace::sendIsOwnBlock,
              "send: count elements; recv: P * count elements at the root, block b from\n"
              "rank b (may be null elsewhere)."};
    case Kind::scatter:
      return {Extent::blocks, Extent::block, true, false, InPlace::recvInSend,
              "send: P * count elements at the root, block b for rank b (may be null\n"
              "elsewhere); recv: count elements."};
    case Kind::inclusive_scan:
      return {Extent::block, Extent::block, false, false, InPlace::sendIsRecv,
              "send, recv: count elements; rank r gets op over ranks 0..r in rank order\n"
              "(MPI_Scan; in place when send == recv)."};
    case Kind::exclusive_scan:
      return {Extent::block, Extent::block, false, false, InPlace::sendIsRecv,
              "send, recv: count elements; rank r >= 1 gets op over ranks 0..r-1 in rank\n"
              "order (MPI_Exscan; in place when send == recv). Rank 0's recv is left as it\n"
              "is, unless an init value is given: then rank 0 gets init and rank r\n"
              "op(init, x_0, ..., x_{r-1}), as std::exclusive_scan."};
    case Kind::barrier:
      return {Extent::none, Extent::none, false, false, InPlace::none,
              "Returns on every rank only after every rank has entered."};
  }
  return {Extent::none, Extent::none, false, false, InPlace::none, ""};
}

// The elements a buffer of `extent` holds on P ranks, `count` a block.
constexpr std::size_t elementsOf(Extent extent, int P, std::size_t count) {
  return extent == Extent::none    ? 0
         : extent == Extent::block ? count
                                   : static_cast<std::size_t>(P) * count;
}

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
