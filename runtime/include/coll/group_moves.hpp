#pragma once
// Group schedules (design.md 3.1, seeds/003) as group-level moves, and
// their plans. A distributed vector at placement k puts part b on rank
// t_k(b); a move (from, to, vectors) takes the vectors at placements
// from .. from + vectors - 1 onto to .. to + vectors - 1 by the one
// permutation t_to t_from^-1, so rank x sends its parts t_{from+i}^-1(x) to
// rank t_to(t_from^-1(x)) and combines or copies them there (a valid move
// keeps every part's index).
//
// The compiler expands exactly these moves into the program it verifies
// (reading each rank's transfers with vectorStep), and generated code
// executes their plan. Plain C++17: no MPI, no exceptions. `Group` is any group with
// act(k, x), inverse(k, x) and position(part) (coll/groups.hpp, or the
// compiler's).

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "coll/groups.hpp"
#include "coll/plan.hpp"

namespace coll {

enum class GroupSchedule { linear, butterfly };

struct GroupMove {
  int from, to, vectors;
  Action action;  // combine or copy
  const char* phase;
};

inline constexpr const char* kReduceScatterPhase = "reduce-scatter";
inline constexpr const char* kAllGatherPhase = "all-gather";

// The moves of `schedule` for P ranks and `kind`: allreduce reduces onto
// one placement and copies it to all; reduce_scatter stops when the sum
// sits at placement 0 (part x on rank x); allgather starts from placement
// 0 (each rank's own block) and only copies.
inline std::vector<GroupMove> groupMoves(GroupSchedule schedule, Kind kind, int P) {
  const bool reduces = kind != Kind::allgather;
  const bool copies = kind != Kind::reduce_scatter;
  std::vector<GroupMove> moves;
  if (schedule == GroupSchedule::linear) {
    if (kind == Kind::allreduce) {
      // Ring: the vector at placement s moves to s + 1 and is combined
      // there, until placement P - 1 holds the sum; then it is copied
      // around the ring.
      for (int s = 0; s + 1 < P; ++s)
        moves.push_back({s, s + 1, 1, Action::combine, kReduceScatterPhase});
      for (int s = 0; s + 1 < P; ++s)
        moves.push_back({(s + P - 1) % P, s, 1, Action::copy, kAllGatherPhase});
      return moves;
    }
    // The ring around placement 0: reduce 1 -> 2 -> ... -> P-1 -> 0, or
    // copy 0 -> 1 -> ... -> P-1.
    if (reduces)
      for (int s = 1; s < P; ++s)
        moves.push_back({s, (s + 1) % P, 1, Action::combine, kReduceScatterPhase});
    if (copies)
      for (int s = 0; s + 1 < P; ++s) moves.push_back({s, s + 1, 1, Action::copy, kAllGatherPhase});
    return moves;
  }
  // Bandwidth-optimal butterfly (r = 0): with n vectors left, the upper
  // floor(n / 2) move onto the lower ones and combine; an odd leftover
  // waits. The distribution replays the halvings in reverse.
  std::vector<std::pair<int, int>> halvings;
  for (int n = P; n > 1; n = (n + 1) / 2) {
    const int kept = (n + 1) / 2, moved = n / 2;
    if (reduces) moves.push_back({kept, 0, moved, Action::combine, kReduceScatterPhase});
    halvings.push_back({kept, moved});
  }
  if (copies)
    for (auto it = halvings.rbegin(); it != halvings.rend(); ++it)
      moves.push_back({0, it->first, it->second, Action::copy, kAllGatherPhase});
  return moves;
}

// A move of one vector slot onto another. Slot c * P + p is the vector of
// copy c at placement p: on rank x it is part c * P + t_p^-1(x) (copy 0 is
// the user's buffer, copies 1.. are scratch parts).
struct VectorMove {
  int source, destination;
};

// Rank x's part of vector slot `slot`.
template <class Group>
int slotPart(const Group& group, int slot, int x) {
  const int P = group.size();
  return slot / P * P + static_cast<int>(group.inverse(slot % P, x));
}

// Rank `rank`'s part of one program step in which every rank makes the
// vector-slot moves `moves`: move (s, d), placements p and q, takes the
// vector by t_q t_p^-1, so rank x sends its part of s to t_q t_p^-1(x),
// which files it as its part of d; a move within one placement is a local
// copy (a receive from the rank itself). The moves between two ranks are
// one message, its pairs in the order of the sender's parts' memory chunks
// (group.position), so that neighbouring chunks are one contiguous run on
// both sides. Every group family's steps are this: the range moves of
// groupPlan and the shifted butterfly's slot moves (coll/butterfly.hpp),
// and the compiler reads a program's moves with it.
template <class Group>
PlanStep vectorStep(const Group& group, const std::vector<VectorMove>& moves, Action action, int rank) {
  const int P = group.size();
  PlanStep step;
  step.action = action;
  auto order = [&](const VectorMove& m, int sender) {
    const int part = slotPart(group, m.source, sender);
    return std::pair<int, int>(part / P, static_cast<int>(group.position(part % P)));
  };
  // The messages of one side, peers in the order of their first move.
  auto messages = [&](bool sending) {
    std::vector<PlanMessage> out;
    std::vector<std::vector<std::size_t>> movesOf;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const int p = moves[i].source % P, q = moves[i].destination % P;
      const int peer = sending ? movePeer(group, p, q, rank) : movePeer(group, q, p, rank);
      if (sending && peer == rank) continue;  // a local copy is only received
      std::size_t m = 0;
      while (m < out.size() && out[m].peer != peer) ++m;
      if (m == out.size()) {
        out.push_back({peer, {}, {}});
        movesOf.emplace_back();
      }
      movesOf[m].push_back(i);
    }
    for (std::size_t m = 0; m < out.size(); ++m) {
      const int sender = sending ? rank : out[m].peer, receiver = sending ? out[m].peer : rank;
      std::vector<std::size_t>& list = movesOf[m];
      std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
        return order(moves[a], sender) < order(moves[b], sender);
      });
      for (std::size_t i : list) {
        const int sent = slotPart(group, moves[i].source, sender);
        const int filed = slotPart(group, moves[i].destination, receiver);
        out[m].parts.push_back(sending ? sent : filed);
        out[m].peerParts.push_back(sending ? filed : sent);
      }
    }
    return out;
  };
  step.sends = messages(true);
  step.receives = messages(false);
  return step;
}

// The slot moves of a group-level `move`: every vector of the range goes
// along the first one's permutation g = t_to t_from^-1, so vector from + i
// lands on placement g t_{from+i} (to + i when the range is one
// permutation: always on cyclic(P), for aligned ranges on xor(P), and for
// the enumeration the compiler finds for a generated group).
template <class Group>
std::vector<VectorMove> rangeMoves(const Group& group, const GroupMove& move) {
  const int P = group.size();
  const int g = static_cast<int>(group.quotient(move.to, move.from));
  std::vector<VectorMove> moves;
  for (int i = 0; i < move.vectors; ++i) {
    const int from = detail::wrap(move.from + i, P);
    moves.push_back({from, static_cast<int>(group.compose(g, from))});
  }
  return moves;
}

// The plan of `moves` on `group` for rank `rank` of P: one step per move,
// the vectorStep of its rangeMoves.
template <class Group>
Plan groupPlan(Kind kind, const std::vector<GroupMove>& moves, const Group& group, int P, int rank) {
  Plan plan = emptyPlan(kind, P, rank, P);
  if (P <= 1) return plan;
  for (const GroupMove& move : moves)
    appendStep(plan, vectorStep(group, rangeMoves(group, move), move.action, rank), move.phase);
  return plan;
}

// butterfly(r = max) on xor(P): recursive doubling (Thakur, Rabenseifner and
// Gropp 2005; the latency-optimal corner of seeds/003): in step k every rank
// exchanges its whole vector with rank xor 2^k and combines, log2 P steps.
inline Plan doublingPlan(int P, int rank) {
  Plan plan = emptyPlan(Kind::allreduce, P, rank);
  for (long long mask = 1; mask < P; mask *= 2) {
    PlanStep step;
    step.action = Action::combine;
    const int peer = rank ^ static_cast<int>(mask);
    step.sends.push_back({peer, {0}, {0}});
    step.receives.push_back({peer, {0}, {0}});
    appendStep(plan, std::move(step), "doubling");
  }
  return plan;
}

}  // namespace coll
