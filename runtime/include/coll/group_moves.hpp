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
// (and its transfers with moveSend), and generated code executes their
// plan. Plain C++17: no MPI, no exceptions. `Group` is any group with
// act(k, x), inverse(k, x) and position(part) (coll/groups.hpp, or the
// compiler's).

#include <algorithm>
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

// What rank x sends in `move`: its parts t_{from+i}^-1(x) to t_to t_from^-1(x),
// in the order of their memory chunks (group.position), so that a message
// of parts in consecutive chunks is one contiguous run on both sides.
template <class Group>
PlanMessage moveSend(const Group& group, const GroupMove& move, int x) {
  PlanMessage m;
  m.peer = movePeer(group, move.from, move.to, x);
  for (int i = 0; i < move.vectors; ++i)
    m.parts.push_back(static_cast<int>(group.inverse(move.from + i, x)));
  std::sort(m.parts.begin(), m.parts.end(),
            [&](int a, int b) { return group.position(a) < group.position(b); });
  m.peerParts = m.parts;
  return m;
}

// The plan of `moves` on `group` for rank `rank` of P: one step per move, in
// which the rank sends moveSend(rank) and receives moveSend(peer) from the
// rank whose message comes to it, t_from t_to^-1(rank).
template <class Group>
Plan groupPlan(Kind kind, const std::vector<GroupMove>& moves, const Group& group, int P, int rank) {
  Plan plan = emptyPlan(kind, P, rank, P);
  if (P <= 1) return plan;
  for (const GroupMove& move : moves) {
    PlanStep step;
    step.action = move.action;
    if (move.vectors > 0) {
      step.sends.push_back(moveSend(group, move, rank));
      const int from = movePeer(group, move.to, move.from, rank);
      PlanMessage in = moveSend(group, move, from);
      in.peer = from;
      step.receives.push_back(std::move(in));
    }
    appendStep(plan, std::move(step), move.phase);
  }
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
