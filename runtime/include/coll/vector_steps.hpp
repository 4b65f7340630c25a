#pragma once
// VectorSteps: runs a ButterflyPlan (coll/butterfly.hpp) on one rank.
//
// `count` elements are split into P chunks as in coll::Workspace; copy 0 is
// the caller's recv buffer and copies 1.. a scratch buffer of the same
// layout. Slot c * P + p on rank x is chunk group.position(t_p^-1(x)) of
// copy c. A communication step sends the listed slots to t_to t_from^-1(x)
// as one message, receives the same number from the inverse peer, and
// folds or copies each received value into its destinations.

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "coll/butterfly.hpp"
#include "coll/groups.hpp"
#include "coll/transport.hpp"

namespace coll {

template <class T, class Group>
class VectorSteps {
  static_assert(std::is_trivially_copyable_v<T>, "coll::VectorSteps needs a trivially copyable T");

 public:
  VectorSteps(Comm& comm, const Group& group, const T* send, T* recv, std::size_t count, int copies)
      : comm_(comm), group_(group), recv_(recv), count_(count) {
    if (copies < 1) throw Error("coll::VectorSteps: a plan needs at least one copy");
    detail::startGroupSteps("coll::VectorSteps", group_.size(), comm_.size(), send, recv, count);
    scratch_.resize(static_cast<std::size_t>(copies - 1) * count_);
    copies_ = copies;
  }
  VectorSteps(const VectorSteps&) = delete;
  VectorSteps& operator=(const VectorSteps&) = delete;

  // The value from the lower-ranked holder goes first in every fold, as in
  // coll::Workspace.
  template <class Op>
  void run(const ButterflyStep& step, Op op) {
    if (count_ == 0 || group_.size() == 1) return;
    const int x = comm_.rank();
    if (step.kind == ButterflyStep::Kind::local) {
      for (const auto& [index, dst] : step.received) {
        const int src = step.sent[static_cast<std::size_t>(index)];
        const T* from = chunk(src, x);
        std::copy(from, from + size(src, x), chunk(dst, x));
      }
      return;
    }
    ++tag_;
    const int peerTo = group_.act(step.to, group_.inverse(step.from, x));
    const int peerFrom = group_.act(step.from, group_.inverse(step.to, x));
    sendSegs_.clear();
    recvSegs_.clear();
    offsets_.clear();
    std::size_t total = 0;
    for (int slot : step.sent) {
      offsets_.push_back(total);
      total += size(slot, peerFrom);  // the sender's part of that slot
    }
    if (tmp_.size() < total) tmp_.resize(total);
    for (std::size_t i = 0; i < step.sent.size(); ++i) {
      const int slot = step.sent[i];
      const std::size_t mine = size(slot, x), theirs = size(slot, peerFrom);
      if (mine > 0) sendSegs_.push_back({chunk(slot, x), mine * sizeof(T)});
      if (theirs > 0) recvSegs_.push_back({tmp_.data() + offsets_[i], theirs * sizeof(T)});
    }
    comm_.transport().exchange(sendSegs_.data(), sendSegs_.size(), peerTo, recvSegs_.data(),
                               recvSegs_.size(), peerFrom, tag_);
    const bool receivedFirst = peerFrom < x;
    for (const auto& [index, dst] : step.received) {
      const std::size_t i = static_cast<std::size_t>(index);
      const std::size_t n = size(step.sent[i], peerFrom);
      if (n != size(dst, x))
        throw Error("coll::VectorSteps: a step files slot " + std::to_string(step.sent[i]) +
                    " under slot " + std::to_string(dst) + " of another part");
      const T* src = tmp_.data() + offsets_[i];
      T* d = chunk(dst, x);
      if (step.kind == ButterflyStep::Kind::copy)
        std::copy(src, src + n, d);
      else if (receivedFirst)
        for (std::size_t e = 0; e < n; ++e) d[e] = op(src[e], d[e]);
      else
        for (std::size_t e = 0; e < n; ++e) d[e] = op(d[e], src[e]);
    }
  }

 private:
  std::size_t chunkOffset(int j) const { return detail::chunkOffset(count_, group_.size(), j); }
  // Rank x's chunk of `slot`, and its length.
  int position(int slot, int x) const {
    return group_.position(group_.inverse(slot % group_.size(), x));
  }
  T* chunk(int slot, int x) {
    const int copy = slot / group_.size();
    if (copy < 0 || copy >= copies_)
      throw Error("coll::VectorSteps: slot " + std::to_string(slot) + " outside the plan's " +
                  std::to_string(copies_) + " copies");
    T* base = copy == 0 ? recv_ : scratch_.data() + static_cast<std::size_t>(copy - 1) * count_;
    return base + chunkOffset(position(slot, x));
  }
  std::size_t size(int slot, int x) const {
    const int j = position(slot, x);
    return chunkOffset(j + 1) - chunkOffset(j);
  }

  Comm& comm_;
  Group group_;
  T* recv_;
  std::size_t count_;
  int copies_ = 1;
  int tag_ = 0;
  std::vector<T> scratch_;
  std::vector<T> tmp_;
  std::vector<std::size_t> offsets_;
  std::vector<SendSegment> sendSegs_;
  std::vector<RecvSegment> recvSegs_;
};

}  // namespace coll
