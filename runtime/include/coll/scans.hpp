#pragma once
// Scans (MPI_Scan, MPI_Exscan) fold prefixes upward: a fold step merges a
// copy of the sender's value into the receiver's, and the sender keeps its
// own (it is part of its result). `linear` is the chain 0 -> 1 -> ... ->
// P-1 (P - 1 steps); `doubling` is recursive doubling (Hillis and Steele,
// "Data parallel algorithms", CACM 1986): in step k every rank i sends to
// i + 2^k, so after it rank i holds ranks (i - 2^(k+1), i]; ceil(log2 P)
// steps. An exclusive scan carries the inclusive prefix in part 0 and ends
// with one shift: rank i's part 0 becomes rank i + 1's part 1, the result.
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
