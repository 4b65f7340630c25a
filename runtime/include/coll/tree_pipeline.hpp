#pragma once
// Pipelined trees (`segments = S` on broadcast, reduce and allreduce): the
// buffer is cut into S consecutive segments (the first count % S one
// element longer, at most count segments) that each run this rank's tree
// steps; in super-step t segment j runs step t - j, and all messages of a
// super-step go out at once (Transport::exchangeAll), so a rank forwards
// segment j while it receives segment j + 1. Each segment runs its steps in
// the verified order and segments touch disjoint memory, so the proof of
// one segment's step program covers every segment.
//
// The classic case is the chain: S segments of M/S bytes cost
// (P + S - 2)(alpha + beta M / S) instead of (P - 1)(alpha + beta M).

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "coll/merge.hpp"
#include "coll/segments.hpp"
#include "coll/transport.hpp"
#include "coll/trees.hpp"

namespace coll {

// Runs `actions` (in step order, at most one per step) on `data` cut into
// `segments` segments, pipelined. Merges use mergeFrom's order.
template <class T, class Op>
void runTreePipelined(Comm& comm, const std::vector<TreeAction>& actions, T* data, std::size_t count,
                      int segments, Op op) {
  if (segments < 1)
    throw Error("coll::runTreePipelined: segments must be >= 1, got " + std::to_string(segments));
  if (count == 0 || actions.empty()) return;
  // No empty segments: at most count of them (the cost model prices S).
  const SegmentSplit split{count, std::min(static_cast<std::size_t>(segments), count)};
  const std::size_t S = split.segments, longest = split.longest();
  const int lastStep = actions.back().step;
  // Received values waiting to be merged: one slot per segment in flight.
  const std::size_t inFlight = std::min(S, actions.size());
  std::vector<T> incoming(inFlight * longest);
  std::vector<SendSegment> sends(inFlight);
  std::vector<RecvSegment> recvs(inFlight);
  std::vector<PeerExchange> exchanges;
  struct Merge {
    std::size_t segment, slot;
    int from;
  };
  std::vector<Merge> merges;
  for (long t = 0; t <= static_cast<long>(lastStep) + static_cast<long>(S) - 1; ++t) {
    exchanges.clear();
    merges.clear();
    std::size_t slot = 0;
    for (const TreeAction& a : actions) {
      const long j = t - a.step;
      if (j < 0) break;  // actions are in step order: later steps wait
      if (j >= static_cast<long>(S)) continue;
      const std::size_t seg = static_cast<std::size_t>(j);
      T* base = data + split.offset(seg);
      const std::size_t bytes = split.length(seg) * sizeof(T);
      if (a.kind == TreeAction::send) {
        sends[slot] = {base, bytes};
        exchanges.push_back({&sends[slot], 1, a.peer, nullptr, 0, kNoPeer});
      } else {
        T* into = a.kind == TreeAction::receive ? base : incoming.data() + slot * longest;
        recvs[slot] = {into, bytes};
        exchanges.push_back({nullptr, 0, kNoPeer, &recvs[slot], 1, a.peer});
        if (a.kind == TreeAction::combine) merges.push_back({seg, slot, a.peer});
      }
      ++slot;
    }
    if (exchanges.empty()) continue;
    comm.transport().exchangeAll(exchanges.data(), exchanges.size(), static_cast<int>(t));
    for (const Merge& m : merges)
      mergeFrom(m.from, comm.rank(), incoming.data() + m.slot * longest, data + split.offset(m.segment),
                split.length(m.segment), op);
  }
}

}  // namespace coll
