#pragma once
// `segments = S`: how a buffer of `count` elements is cut into S
// consecutive segments, the first count % S one element longer, and the
// pipelined plan that runs a plan on every segment. Plain C++17: no MPI,
// no exceptions.

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

#include "coll/plan.hpp"

namespace coll {

struct SegmentSplit {
  std::size_t count, segments;
  std::size_t offset(std::size_t j) const {
    return j * (count / segments) + std::min(j, count % segments);
  }
  std::size_t length(std::size_t j) const {
    return count / segments + (j < count % segments ? 1 : 0);
  }
  std::size_t longest() const { return length(0); }
};

// The pipeline's shape (seeds/001's pipelined chain): `steps` steps run on
// S segments take superSteps(steps, S) super-steps; super-step t runs step
// t - j of segment j for the segments j of superStep(t, steps, S). The
// runtime's pipelinePlan and the cost model's pricing of a pipelined
// program both stagger by these.
struct SuperStep {
  int first, last;  // its segments, first .. last (none when last < first)
};
inline int superSteps(int steps, int S) { return steps > 0 ? steps + S - 1 : 0; }
inline SuperStep superStep(int t, int steps, int S) {
  return {std::max(0, t - steps + 1), std::min(t, S - 1)};
}

// Segment j's part p of a plan with n data parts and q scratch parts, in
// the pipelined plan of S segments: data parts segment by segment, then
// the scratch parts segment by segment.
inline int pipelinedPart(int p, int j, int n, int q, int S) {
  return p < n ? j * n + p : S * n + j * q + (p - n);
}

// `plan` run on `segments` disjoint copies of its parts, pipelined: segment
// j's data part p is part j * plan.parts + p (its scratch part q is part
// segments * plan.parts + j * plan.scratchParts + q). In super-step t
// segment j runs step t - j of `plan`, and the steps of a super-step run in
// one exchange, so a rank forwards segment j while it receives segment
// j + 1: (steps + segments - 1) super-steps, steps * segments steps in all,
// numbered super-step by super-step and by segment within one. Segments
// touch disjoint parts, so one segment's proof covers every segment, and no
// later step of a super-step touches what an earlier one writes. Each of
// `plan`'s steps must run in an exchange of its own.
inline Plan pipelinePlan(const Plan& plan, int segments) {
  const int S = std::max(segments, 1), n = plan.parts, q = plan.scratchParts;
  const int steps = plan.numSteps;
  Plan out = emptyPlan(plan.kind, plan.ranks, plan.rank, S * n, S * q);
  out.root = plan.root;
  out.phases = plan.phases;
  out.numSteps = steps * S;
  // This rank's steps k of super-step t are those with t - S < k <= t:
  // plan.steps[lo, hi), taken from the last (segment t - k rising).
  std::size_t lo = 0, hi = 0;
  int number = 0;  // the first step of super-step t
  for (int t = 0; t < superSteps(steps, S); ++t) {
    const auto [first, last] = superStep(t, steps, S);
    while (hi < plan.steps.size() && plan.steps[hi].step <= t) ++hi;
    while (lo < hi && plan.steps[lo].step <= t - S) ++lo;
    for (std::size_t i = hi; i-- > lo;) {
      const PlanStep& from = plan.steps[i];
      const int j = t - from.step;
      PlanStep step = from;
      for (std::vector<PlanMessage>* list : {&step.sends, &step.receives})
        for (PlanMessage& m : *list) {
          for (int& p : m.parts) p = pipelinedPart(p, j, n, q, S);
          for (int& p : m.peerParts) p = pipelinedPart(p, j, n, q, S);
        }
      step.step = number + (j - first);
      step.exchange = number;
      out.steps.push_back(std::move(step));
    }
    number += last - first + 1;
  }
  return out;
}

}  // namespace coll
