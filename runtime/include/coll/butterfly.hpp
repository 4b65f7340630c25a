#pragma once
// The group butterfly with 0 < r (design.md 3.1, seeds/003): the
// allreduce runs the bandwidth-optimal reduction for several shifted
// copies of itself at once, keeps ONE copy of every distinct vector
// (placement, contribution set), and skips the first r steps of the
// distribution because the sum already sits at the shifted placements.
//
// The compiler expands exactly this plan into the step program it verifies
// (as group-level moves of vector slots) and generated code executes its
// rank plan (butterflyRankPlan), so the schedule that is proven is the one
// that runs. Plain C++17: no MPI, no exceptions.
//
// A vector slot is copy * P + placement. Copy 0 is the user's buffer (the
// placements a rank holds a part of); copies 1.. are scratch, needed when
// two different vectors share a placement ({3} and {3, 0} for P = 7,
// r = 1). On rank x a slot at placement p holds part t_p^-1(x) of its copy.

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "coll/group_moves.hpp"
#include "coll/groups.hpp"
#include "coll/plan.hpp"

namespace coll {

// butterfly(r = max): any r >= ceil(log2 P) is the latency-optimal corner.
constexpr int kLatencyOptimal = 64;

struct ButterflyStep {
  enum class Kind {
    local,  // on every rank, copy the moved slots' values into other slots
    fold,   // sent values merge into the destinations; senders keep theirs
    copy,   // sent values overwrite the destinations
  };
  Kind kind = Kind::fold;
  // Communication steps move every vector by the one permutation
  // t_to t_from^-1; a local step moves none (from == to).
  int from = 0, to = 0;
  // Distinct slots whose values travel, in message order.
  std::vector<int> sent;
  // (index into sent, destination slot) for every value received.
  std::vector<std::pair<int, int>> received;
};

struct ButterflyPlan {
  int P = 1;
  int r = 0;       // after clamping to ceil(log2 P)
  int shifts = 1;  // shifted reductions run at once
  int copies = 1;  // copy 0 and the scratch copies
  std::vector<ButterflyStep> steps;
  int communicationSteps() const {
    int n = 0;
    for (const ButterflyStep& s : steps) n += s.kind != ButterflyStep::Kind::local;
    return n;
  }
};

// The slot moves of one step: sent[index] onto destination, per received
// pair.
inline std::vector<VectorMove> butterflyMoves(const ButterflyStep& step) {
  std::vector<VectorMove> moves;
  for (const auto& [index, destination] : step.received)
    moves.push_back({step.sent[static_cast<std::size_t>(index)], destination});
  return moves;
}

namespace detail {

inline int ceilLog2(int P) {
  int bits = 0;
  while ((1 << bits) < P) ++bits;
  return bits;
}

}  // namespace detail

// The plan of butterfly(r) for allreduce on P ranks. r is clamped to
// ceil(log2 P) (r = max). shape xor_ needs a power-of-two P.
//
// The reduction of the unshifted schedule: with N vectors left, those at
// placements c .. c+h-1 (c = ceil(N/2), h = floor(N/2)) fold onto 0 .. h-1
// and an odd leftover waits. Shift s runs it on placements composed with s.
// A vector is named by its placement and the class of its contribution set
// relative to the placement; a merged set's class is the pair of its
// halves' classes (both halves move by the same t_c, so equal pairs are
// equal sets), which makes deduplication exact without handling sets.
//
// `compose(a, b)` is the index of t_a t_b in the group's enumeration (the
// enumeration must let every halving move by one element, as cyclic(P)
// and xor(P) do; a generated group's is found by the compiler). r = 0 is
// the plain butterfly of coll::groupMoves, which needs no slots.
template <class Compose>
ButterflyPlan butterflyPlan(int P, int r, Compose compose) {
  using Kind = ButterflyStep::Kind;
  ButterflyPlan plan;
  plan.P = P;
  const int levels = detail::ceilLog2(P);
  plan.r = std::min(std::max(r, 0), levels);
  std::vector<int> sizes{P};  // N per level
  for (int l = 0; l < levels; ++l) sizes.push_back((sizes.back() + 1) / 2);
  plan.shifts = sizes[static_cast<std::size_t>(levels - plan.r)];

  // cls[i]: class of base placement i at the current level.
  std::vector<int> cls(static_cast<std::size_t>(P), 0);
  // slotOf[cls * P + placement]: the slot of a live vector, or -1.
  std::vector<int> slotOf(static_cast<std::size_t>(P), -1);
  for (int q = 0; q < P; ++q) slotOf[static_cast<std::size_t>(q)] = q;
  // occupied[slot]: a live vector is there (copies grow as needed).
  std::vector<char> occupied(static_cast<std::size_t>(P), 1);

  for (int l = 0; l < levels; ++l) {
    const int n = sizes[static_cast<std::size_t>(l)];
    const int c = (n + 1) / 2, h = n / 2;
    // Classes of the next level: merged pairs and the leftover.
    std::vector<std::pair<int, int>> keys;
    std::vector<int> nextCls(static_cast<std::size_t>(c));
    for (int i = 0; i < c; ++i) {
      std::pair<int, int> key{cls[static_cast<std::size_t>(i)],
                              i < h ? cls[static_cast<std::size_t>(c + i)] : -1};
      auto it = std::find(keys.begin(), keys.end(), key);
      nextCls[static_cast<std::size_t>(i)] = static_cast<int>(it - keys.begin());
      if (it == keys.end()) keys.push_back(key);
    }
    const int nextClasses = static_cast<int>(keys.size());
    std::vector<int> nextSlotOf(static_cast<std::size_t>(nextClasses * P), -1);
    // What the results need: per result, its accumulator and sent vector.
    struct Merge {
      int result, acc, sent;  // result: next-level key; acc, sent: slots
    };
    std::vector<Merge> merges;
    std::vector<int> carried;  // slots that stay as they are
    for (int s = 0; s < plan.shifts; ++s)
      for (int i = 0; i < c; ++i) {
        const int q = compose(i, s);
        const int result = nextCls[static_cast<std::size_t>(i)] * P + q;
        if (nextSlotOf[static_cast<std::size_t>(result)] != -1)
          continue;  // another shift made this vector already
        const int acc = slotOf[static_cast<std::size_t>(cls[static_cast<std::size_t>(i)] * P + q)];
        if (i >= h) {  // the odd leftover waits where it is
          nextSlotOf[static_cast<std::size_t>(result)] = acc;
          carried.push_back(acc);
          continue;
        }
        const int from = compose(c + i, s);
        const int sent = slotOf[static_cast<std::size_t>(cls[static_cast<std::size_t>(c + i)] * P + from)];
        nextSlotOf[static_cast<std::size_t>(result)] = -2;  // placed below
        merges.push_back({result, acc, sent});
      }
    // A merge folds into its accumulator in place unless the accumulator
    // is carried or already taken by another merge: then a scratch slot at
    // the same placement gets a copy of it first.
    std::vector<char> taken(occupied.size(), 0);
    for (int slot : carried) taken[static_cast<std::size_t>(slot)] = 1;
    ButterflyStep local{Kind::local, 0, 0, {}, {}};
    ButterflyStep fold{Kind::fold, c, 0, {}, {}};
    std::vector<char> freshUsed(occupied.size(), 0);
    for (const Merge& m : merges) {
      int dst = m.acc;
      if (taken[static_cast<std::size_t>(m.acc)]) {
        const int q = m.acc % P;
        for (dst = q;; dst += P) {
          if (static_cast<std::size_t>(dst) >= occupied.size()) {
            occupied.resize(occupied.size() + static_cast<std::size_t>(P), 0);
            taken.resize(occupied.size(), 0);
            freshUsed.resize(occupied.size(), 0);
          }
          if (!occupied[static_cast<std::size_t>(dst)] && !freshUsed[static_cast<std::size_t>(dst)]) break;
        }
        freshUsed[static_cast<std::size_t>(dst)] = 1;
        local.sent.push_back(m.acc);
        local.received.push_back({static_cast<int>(local.sent.size()) - 1, dst});
      }
      taken[static_cast<std::size_t>(dst)] = 1;
      nextSlotOf[static_cast<std::size_t>(m.result)] = dst;
      auto it = std::find(fold.sent.begin(), fold.sent.end(), m.sent);
      if (it == fold.sent.end()) it = fold.sent.insert(fold.sent.end(), m.sent);
      fold.received.push_back({static_cast<int>(it - fold.sent.begin()), dst});
    }
    if (!local.sent.empty()) plan.steps.push_back(std::move(local));
    plan.steps.push_back(std::move(fold));
    std::fill(occupied.begin(), occupied.end(), 0);
    for (int slot : nextSlotOf)
      if (slot >= 0) occupied[static_cast<std::size_t>(slot)] = 1;
    slotOf = std::move(nextSlotOf);
    cls = std::move(nextCls);
  }

  // The sum sits at placements 0 .. shifts-1 (class 0 of the last level);
  // the distribution needs it in copy 0.
  ButterflyStep local{Kind::local, 0, 0, {}, {}};
  for (int q = 0; q < plan.shifts; ++q) {
    const int slot = slotOf[static_cast<std::size_t>(q)];
    if (slot != q) {
      local.sent.push_back(slot);
      local.received.push_back({static_cast<int>(local.sent.size()) - 1, q});
    }
  }
  if (!local.sent.empty()) plan.steps.push_back(std::move(local));
  plan.copies = static_cast<int>(occupied.size()) / P;

  // The distribution without its first r steps: copy 0 .. h-1 onto
  // c .. c+h-1, halvings in reverse.
  for (int l = levels - 1 - plan.r; l >= 0; --l) {
    const int n = sizes[static_cast<std::size_t>(l)];
    const int c = (n + 1) / 2, h = n / 2;
    ButterflyStep copy{Kind::copy, 0, c, {}, {}};
    for (int i = 0; i < h; ++i) {
      copy.sent.push_back(i);
      copy.received.push_back({i, c + i});
    }
    plan.steps.push_back(std::move(copy));
  }
  return plan;
}

// The plan of butterfly(r) on `group` (coll/groups.hpp: its compose()).
template <class Group>
ButterflyPlan butterflyPlan(const Group& group, int r) {
  return butterflyPlan(group.size(), r, [&](int a, int b) { return group.compose(a, b); });
}

// Rank `rank`'s plan of `butterfly` on `group`: each step is the
// vectorStep (coll/group_moves.hpp) of its slot moves, so slot c * P + p
// holds, on rank x, part c * P + t_p^-1(x) (parts P.. are the scratch
// copies); a local step copies parts within the rank. A slot sent to two
// destinations is sent twice (the step program's transfers pair one part
// with one part). `kind` is allreduce, or barrier: the same messages with
// parts of no elements.
template <class Group>
Plan butterflyRankPlan(const ButterflyPlan& butterfly, const Group& group, int rank,
                       Kind kind = Kind::allreduce) {
  const int P = butterfly.P;
  Plan plan = emptyPlan(kind, P, rank, P, (butterfly.copies - 1) * P);
  for (const ButterflyStep& s : butterfly.steps) {
    const Action action = s.kind == ButterflyStep::Kind::fold ? Action::fold : Action::copy;
    appendStep(plan, vectorStep(group, butterflyMoves(s), action, rank),
               s.kind == ButterflyStep::Kind::local  ? "local"
               : s.kind == ButterflyStep::Kind::fold ? "reduce-scatter"
                                                     : "all-gather");
  }
  return plan;
}

}  // namespace coll
