#pragma once
// Workspace: the group-level step primitive that generated schedules call.
//
// `count` elements are split into P chunks; part b of the vector lives in
// chunk group.position(b). A distributed vector at placement k puts part b on
// rank t_k(b), so rank x holds part inverse(k, x) of it. A step moves
// `vectors` consecutive placements with one communication permutation.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "coll/group_moves.hpp"
#include "coll/groups.hpp"
#include "coll/segments.hpp"
#include "coll/transport.hpp"

namespace coll {

template <class T, class Group>
class Workspace {
  // Data travels as raw bytes.
  static_assert(std::is_trivially_copyable_v<T>, "coll::Workspace needs a trivially copyable T");

 public:
  Workspace(Comm& comm, const Group& group, const T* send, T* recv, std::size_t count)
      : comm_(comm), group_(group), recv_(recv), count_(count) {
    detail::startGroupSteps("coll::Workspace", group_.size(), comm_.size(), send, recv, count);
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // Combine the vectors at placements from.. into those at to.. with `op`.
  // The value from the lower-ranked holder goes first, so a schedule whose
  // merges join adjacent runs of ranks (the verifier's operator-legality
  // proof) folds a non-commutative operator in rank order.
  template <class Op>
  void combine(int from, int to, int vectors, Op op) {
    if (!prepare(from, to, vectors)) return;
    receiveIntoTemp();
    mergeFromTemp(op);
  }

  // Pipelining (segments = S): post() prepares one step of this segment and
  // fills the exchange to run together with other segments' steps
  // (Transport::exchangeAll); complete*() then files what arrived. post()
  // returns false when the segment has nothing to move.
  bool post(int from, int to, int vectors, PeerExchange& exchange) {
    if (!prepare(from, to, vectors) || peerTo_ == comm_.rank()) return false;
    stageReceive();
    exchange = PeerExchange{sendSegs_.data(), sendSegs_.size(), peerTo_,
                            recvSegs_.data(), recvSegs_.size(), peerFrom_};
    return true;
  }
  template <class Op>
  void completeCombine(Op op) { mergeFromTemp(op); }
  void completeCopy() { copyFromTemp(); }

  // Overwrite the vectors at placements to.. with those at from...
  void copy(int from, int to, int vectors) {
    if (!prepare(from, to, vectors)) return;
    if (peerTo_ == comm_.rank()) return;  // identity permutation: parts already in place
    if (overlaps(sendRanges_, recvRanges_)) {
      // MPI forbids receiving into memory that is being sent; stage it.
      receiveIntoTemp();
      copyFromTemp();
      return;
    }
    recvSegs_.clear();
    for (const Range& r : recvRanges_) recvSegs_.push_back({recv_ + r.begin, r.size * sizeof(T)});
    comm_.transport().exchange(sendSegs_.data(), sendSegs_.size(), peerTo_, recvSegs_.data(),
                               recvSegs_.size(), peerFrom_, tag_);
  }

 private:
  struct Range {
    std::size_t begin;  // element offset in recv
    std::size_t size;   // elements
    bool operator==(const Range& o) const { return begin == o.begin && size == o.size; }
  };

  std::size_t chunkOffset(int j) const { return detail::chunkOffset(count_, group_.size(), j); }

  // Sorted, merged element ranges of parts inverse(base + i, x), i < vectors.
  void partRanges(int base, int vectors, int x, std::vector<Range>& out) {
    positions_.clear();
    for (int i = 0; i < vectors; ++i) positions_.push_back(group_.position(group_.inverse(base + i, x)));
    std::sort(positions_.begin(), positions_.end());
    out.clear();
    for (std::size_t i = 0; i < positions_.size();) {
      std::size_t j = i + 1;
      while (j < positions_.size() && positions_[j] == positions_[j - 1] + 1) ++j;
      const std::size_t begin = chunkOffset(positions_[i]);
      const std::size_t end = chunkOffset(positions_[j - 1] + 1);
      if (end > begin) out.push_back({begin, end - begin});  // empty chunks when count < P
      i = j;
    }
  }

  static bool overlaps(const std::vector<Range>& a, const std::vector<Range>& b) {
    std::size_t i = 0, j = 0;  // both lists are sorted and disjoint internally
    while (i < a.size() && j < b.size()) {
      if (a[i].begin + a[i].size <= b[j].begin) ++i;
      else if (b[j].begin + b[j].size <= a[i].begin) ++j;
      else return true;
    }
    return false;
  }

  // Computes peers and ranges of one step; false if there is nothing to move.
  bool prepare(int from, int to, int vectors) {
    const int P = group_.size();
    if (vectors < 0 || vectors > P)
      throw Error("coll::Workspace: step moves " + std::to_string(vectors) + " vectors, but P = " +
                  std::to_string(P));
    if (count_ == 0 || vectors == 0 || P == 1) return false;
    ++tag_;  // fresh tag per step; every rank runs the same steps
    const int x = comm_.rank();
    peerTo_ = group_.act(to, group_.inverse(from, x));
    peerFrom_ = group_.act(from, group_.inverse(to, x));
    partRanges(from, vectors, x, sendRanges_);
    partRanges(to, vectors, x, recvRanges_);
    // The source sends its parts inverse(from + i, src); a valid step makes
    // that the set we receive. Catching a mismatch here beats corrupt data.
    partRanges(from, vectors, peerFrom_, checkRanges_);
    if (checkRanges_ != recvRanges_)
      throw Error("coll::Workspace: step (from=" + std::to_string(from) + ", to=" +
                  std::to_string(to) + ", vectors=" + std::to_string(vectors) +
                  ") does not preserve part indices under this group");
    sendSegs_.clear();
    for (const Range& r : sendRanges_) sendSegs_.push_back({recv_ + r.begin, r.size * sizeof(T)});
    return true;
  }

  // The received ranges packed back to back in tmp_. One recv segment per
  // range so message sizes match the sender's segments.
  void stageReceive() {
    std::size_t total = 0;
    for (const Range& r : recvRanges_) total += r.size;
    if (tmp_.size() < total) tmp_.resize(total);
    recvSegs_.clear();
    std::size_t t = 0;
    for (const Range& r : recvRanges_) {
      recvSegs_.push_back({tmp_.data() + t, r.size * sizeof(T)});
      t += r.size;
    }
  }

  void receiveIntoTemp() {
    stageReceive();
    comm_.transport().exchange(sendSegs_.data(), sendSegs_.size(), peerTo_, recvSegs_.data(),
                               recvSegs_.size(), peerFrom_, tag_);
  }

  // The value from the lower-ranked holder goes first.
  template <class Op>
  void mergeFromTemp(Op op) {
    const bool receivedFirst = peerFrom_ < comm_.rank();
    std::size_t t = 0;
    for (const Range& r : recvRanges_) {
      T* dst = recv_ + r.begin;
      const T* src = tmp_.data() + t;
      if (receivedFirst)
        for (std::size_t e = 0; e < r.size; ++e) dst[e] = op(src[e], dst[e]);
      else
        for (std::size_t e = 0; e < r.size; ++e) dst[e] = op(dst[e], src[e]);
      t += r.size;
    }
  }

  void copyFromTemp() {
    std::size_t t = 0;
    for (const Range& r : recvRanges_) {
      std::copy(tmp_.data() + t, tmp_.data() + t + r.size, recv_ + r.begin);
      t += r.size;
    }
  }

  Comm& comm_;
  Group group_;
  T* recv_;
  std::size_t count_;
  int tag_ = 0;
  int peerTo_ = kNoPeer;
  int peerFrom_ = kNoPeer;
  std::vector<T> tmp_;  // grown as needed, reused across steps
  // Per-step scratch, kept as members so steps do not allocate once warm.
  std::vector<int> positions_;
  std::vector<Range> sendRanges_, recvRanges_, checkRanges_;
  std::vector<SendSegment> sendSegs_;
  std::vector<RecvSegment> recvSegs_;
};

// `segments = S`: the buffer is cut into S consecutive segments (the first
// count % S one element longer), each its own Workspace running the same
// moves. In super-step t segment j runs move t - j, and all messages of a
// super-step go out at once, so segment j + 1 enters a step as soon as
// segment j leaves it. Segments touch disjoint memory, so the proof of the
// moves covers every segment.
template <class T, class Group, class Op>
void runPipelined(Comm& comm, const Group& group, const T* send, T* recv, std::size_t count,
                  int segments, const std::vector<GroupMove>& moves, Op op) {
  if (segments < 1) throw Error("coll::runPipelined: segments must be >= 1, got " + std::to_string(segments));
  if (count > 0 && (send == nullptr || recv == nullptr))
    throw Error("coll::runPipelined: null buffer with count " + std::to_string(count));
  if (count == 0) return;
  const SegmentSplit split{count, static_cast<std::size_t>(segments)};
  std::vector<std::unique_ptr<Workspace<T, Group>>> parts;
  for (std::size_t j = 0; j < split.segments; ++j)
    parts.push_back(std::make_unique<Workspace<T, Group>>(comm, group, send + split.offset(j), recv + split.offset(j),
                                                          split.length(j)));
  const int steps = static_cast<int>(moves.size());
  std::vector<PeerExchange> exchanges;
  std::vector<int> active;
  for (int t = 0; t + 1 < steps + segments; ++t) {
    exchanges.clear();
    active.clear();
    for (int j = 0; j < segments; ++j) {
      const int k = t - j;
      if (k < 0 || k >= steps) continue;
      PeerExchange exchange{};
      if (parts[static_cast<std::size_t>(j)]->post(moves[static_cast<std::size_t>(k)].from,
                                                   moves[static_cast<std::size_t>(k)].to,
                                                   moves[static_cast<std::size_t>(k)].vectors, exchange)) {
        exchanges.push_back(exchange);
        active.push_back(j);
      }
    }
    if (!exchanges.empty()) comm.transport().exchangeAll(exchanges.data(), exchanges.size(), t);
    for (int j : active) {
      Workspace<T, Group>& part = *parts[static_cast<std::size_t>(j)];
      if (moves[static_cast<std::size_t>(t - j)].action == Action::combine)
        part.completeCombine(op);
      else
        part.completeCopy();
    }
  }
}

}  // namespace coll
