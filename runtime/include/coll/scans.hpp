#pragma once
// Scans (MPI_Scan, MPI_Exscan) fold prefixes upward: a fold step merges a
// copy of the sender's value into the receiver's, and the sender keeps its
// own (it is part of its result). `linear` is the chain 0 -> 1 -> ... ->
// P-1 (P - 1 steps); `doubling` is recursive doubling (Hillis and Steele,
// "Data parallel algorithms", CACM 1986): in step k every rank i sends to
// i + 2^k, so after it rank i holds ranks (i - 2^(k+1), i]; ceil(log2 P)
// steps. An exclusive scan's parts are the rank's value (part 0) and its
// result (part 1). Along the chain it is direct, as MPI libraries do it:
// rank i receives ranks 0..i-1 straight into its result, and a rank with a
// successor copies that into a scratch part (2), folds its own value in
// behind it (the prefix first: a local fold puts the part it writes first,
// so non-commutative operators fold in rank order) and passes it on; P - 1
// messages, rank 0 sends its value itself. By doubling it carries the
// inclusive prefix in part 0 and ends with one shift: rank i's part 0
// becomes rank i + 1's part 1.
//
// The compiler expands exactly this plan into the program it verifies, and
// generated code executes it. Plain C++17: no MPI, no exceptions.

#include <vector>

#include "coll/plan.hpp"

namespace coll {

enum class ScanSchedule { linear, doubling };

// The plan of an inclusive or exclusive scan for rank `rank` of P.
inline Plan scanPlan(Kind kind, ScanSchedule schedule, int P, int rank) {
  const bool exclusive = kind == Kind::exclusive_scan;
  if (exclusive && schedule == ScanSchedule::linear) {
    Plan plan = emptyPlan(kind, P, rank, 2, 1);
    // A step between ranks `from` and `to` (== from: local) of `parts`
    // into `into`; listed by the ranks it involves.
    auto add = [&](const char* phase, Action action, int from, int part, int to, int into) {
      PlanStep step;
      step.action = action;
      if (from == rank && to != rank) step.sends.push_back({to, {part}, {into}});
      if (to == rank) step.receives.push_back({from, {into}, {part}});
      appendStep(plan, std::move(step), phase);
    };
    for (int i = 0; i + 1 < P; ++i) {
      if (i > 0) {
        add("carry", Action::copy, i, 1, i, 2);  // the prefix of ranks 0..i-1
        add("carry", Action::fold, i, 0, i, 2);  // then rank i's own value
      }
      add("scan", Action::copy, i, i == 0 ? 0 : 2, i + 1, 1);
    }
    return plan;
  }
  Plan plan = emptyPlan(kind, P, rank, exclusive ? 2 : 1);
  // One step: every (i, i + distance) with both ranks in range and i in
  // [firstSource, lastSource].
  auto add = [&](const char* phase, Action action, int distance, int firstSource,
                 int lastSource, int receivedAs) {
    PlanStep step;
    step.action = action;
    auto sends = [&](int i) { return i >= firstSource && i <= lastSource && i + distance < P; };
    if (sends(rank)) step.sends.push_back({rank + distance, {0}, {receivedAs}});
    if (rank - distance >= 0 && sends(rank - distance))
      step.receives.push_back({rank - distance, {receivedAs}, {0}});
    appendStep(plan, std::move(step), phase);
  };
  if (schedule == ScanSchedule::linear) {
    for (int k = 0; k + 1 < P; ++k) add("scan", Action::fold, 1, k, k, 0);
  } else {
    for (long long d = 1; d < P; d *= 2) add("scan", Action::fold, static_cast<int>(d), 0, P - 1, 0);
  }
  if (exclusive && P > 1) add("shift", Action::copy, 1, 0, P - 1, 1);
  return plan;
}

}  // namespace coll
