#pragma once
// PeerSteps: the per-rank step primitive of schedules that are not group
// moves (trees, digit routings). In one step a rank sends to one peer and/or
// receives from one peer; the step number is the message tag, so every rank
// may skip the steps it has no part in.

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "coll/transport.hpp"

namespace coll {

// Merges `in`, which came from rank `from`, into acc on rank `rank`: the
// value from the lower rank goes first (as in Workspace::combine), so merges
// of adjacent rank runs fold a non-commutative operator in rank order.
template <class T, class Op>
void mergeFrom(int from, int rank, const T* in, T* acc, std::size_t n, Op op) {
  if (from < rank)
    for (std::size_t i = 0; i < n; ++i) acc[i] = op(in[i], acc[i]);
  else
    for (std::size_t i = 0; i < n; ++i) acc[i] = op(acc[i], in[i]);
}

template <class T>
class PeerSteps {
  // Data travels as raw bytes.
  static_assert(std::is_trivially_copyable_v<T>, "coll::PeerSteps needs a trivially copyable T");

 public:
  explicit PeerSteps(Comm& comm) : comm_(comm) {}
  PeerSteps(const PeerSteps&) = delete;
  PeerSteps& operator=(const PeerSteps&) = delete;

  void send(int step, int to, const T* data, std::size_t n) {
    const SendSegment segment{data, n * sizeof(T)};
    comm_.transport().exchange(&segment, 1, checkPeer(to), nullptr, 0, kNoPeer, step);
  }

  void receive(int step, int from, T* data, std::size_t n) {
    const RecvSegment segment{data, n * sizeof(T)};
    comm_.transport().exchange(nullptr, 0, kNoPeer, &segment, 1, checkPeer(from), step);
  }

  // Sends and receives at once (either peer may be kNoPeer).
  void exchange(int step, int to, const T* send, std::size_t n, int from, T* recv, std::size_t m) {
    const SendSegment out{send, n * sizeof(T)};
    const RecvSegment in{recv, m * sizeof(T)};
    comm_.transport().exchange(&out, to == kNoPeer ? 0 : 1, to == kNoPeer ? kNoPeer : checkPeer(to), &in,
                               from == kNoPeer ? 0 : 1, from == kNoPeer ? kNoPeer : checkPeer(from), step);
  }

  // Sends blocks `blocks` (block j is the n elements at base + j * n) to
  // `to` and receives the same blocks from `from` in their place: the step
  // of a digit routing, where every rank sends and receives one offset set.
  void exchangeBlocks(int step, int to, int from, T* base, std::size_t n, const std::vector<int>& blocks) {
    if (tmp_.size() < blocks.size() * n) tmp_.resize(blocks.size() * n);
    sendSegs_.clear();
    recvSegs_.clear();
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      sendSegs_.push_back({base + static_cast<std::size_t>(blocks[b]) * n, n * sizeof(T)});
      recvSegs_.push_back({tmp_.data() + b * n, n * sizeof(T)});
    }
    // Received into tmp_ first: MPI forbids receiving into memory being sent.
    comm_.transport().exchange(sendSegs_.data(), sendSegs_.size(), checkPeer(to), recvSegs_.data(),
                               recvSegs_.size(), checkPeer(from), step);
    for (std::size_t b = 0; b < blocks.size(); ++b)
      std::copy(tmp_.data() + b * n, tmp_.data() + (b + 1) * n, base + static_cast<std::size_t>(blocks[b]) * n);
  }

  // Merges what arrives from `from` into acc (mergeFrom's order).
  template <class Op>
  void receiveCombine(int step, int from, T* acc, std::size_t n, Op op) {
    if (tmp_.size() < n) tmp_.resize(n);
    receive(step, from, tmp_.data(), n);
    merge(from, tmp_.data(), acc, n, op);
  }

  // Sends acc to `to` while merging what arrives from `from` (either peer
  // may be kNoPeer): a step of recursive-doubling scans.
  template <class Op>
  void exchangeCombine(int step, int to, int from, T* acc, std::size_t n, Op op) {
    if (tmp_.size() < n) tmp_.resize(n);
    exchange(step, to, acc, n, from, tmp_.data(), n);
    if (from != kNoPeer) merge(from, tmp_.data(), acc, n, op);
  }

  // Sends acc to `right` and `left` and merges both of their values into
  // it, all four messages at once: a Trivance phase on two ports.
  template <class Op>
  void exchangeBothCombine(int step, int right, int left, T* acc, std::size_t n, Op op) {
    if (tmp_.size() < 2 * n) tmp_.resize(2 * n);
    const SendSegment out{acc, n * sizeof(T)};
    const RecvSegment fromLeft{tmp_.data(), n * sizeof(T)};
    const RecvSegment fromRight{tmp_.data() + n, n * sizeof(T)};
    const PeerExchange both[2] = {{&out, 1, checkPeer(right), &fromLeft, 1, checkPeer(left)},
                                  {&out, 1, checkPeer(left), &fromRight, 1, checkPeer(right)}};
    comm_.transport().exchangeAll(both, 2, step);
    // In the order of the verified step program: the right value, then the left.
    merge(right, tmp_.data() + n, acc, n, op);
    merge(left, tmp_.data(), acc, n, op);
  }

 private:
  template <class Op>
  void merge(int from, const T* in, T* acc, std::size_t n, Op op) {
    mergeFrom(from, comm_.rank(), in, acc, n, op);
  }

  int checkPeer(int peer) const {
    if (peer < 0 || peer >= comm_.size() || peer == comm_.rank())
      throw Error("coll::PeerSteps: rank " + std::to_string(comm_.rank()) +
                  " has no peer " + std::to_string(peer) + " in a communicator of " +
                  std::to_string(comm_.size()));
    return peer;
  }

  Comm& comm_;
  std::vector<T> tmp_;  // grown as needed, reused across steps
  std::vector<SendSegment> sendSegs_;
  std::vector<RecvSegment> recvSegs_;
};

}  // namespace coll
