#pragma once
// `segments = S`: how a buffer of `count` elements is cut into S
// consecutive segments, the first count % S one element longer, and the
// pipelined plan that runs a plan on every segment. Plain C++17: no MPI,
// no exceptions.

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>
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

// `plan` run on `segments` disjoint copies of its parts, pipelined: segment
// j's data part p is part j * plan.parts + p (its scratch part q is part
// segments * plan.parts + j * plan.scratchParts + q). In super-step t
// segment j runs step t - j of `plan`, and the steps of a super-step run in
// one exchange (withNext), so a rank forwards segment j while it receives
// segment j + 1: (steps + segments - 1) super-steps in all. Segments touch
// disjoint parts, so one segment's proof covers every segment, and no
// later step of a super-step touches what an earlier one writes.
// `plan` itself must have no withNext steps.
inline Plan pipelinePlan(const Plan& plan, int segments) {
  const int S = std::max(segments, 1), n = plan.parts, q = plan.scratchParts;
  const int steps = static_cast<int>(plan.steps.size());
  Plan out = emptyPlan(plan.kind, plan.ranks, plan.rank, S * n, S * q);
  out.root = plan.root;
  auto rename = [&](int p, int j) { return p < n ? j * n + p : S * n + j * q + (p - n); };
  for (int t = 0; t + 1 < steps + S; ++t) {
    const int first = std::max(0, t - steps + 1), last = std::min(t, S - 1);
    for (int j = first; j <= last; ++j) {
      const std::size_t k = static_cast<std::size_t>(t - j);
      PlanStep step = plan.steps[k];
      for (std::vector<PlanMessage>* list : {&step.sends, &step.receives})
        for (PlanMessage& m : *list) {
          for (int& p : m.parts) p = rename(p, j);
          for (int& p : m.peerParts) p = rename(p, j);
        }
      step.withNext = j < last;
      out.steps.push_back(std::move(step));
      out.phases.push_back(k < plan.phases.size() ? plan.phases[k] : std::string("step"));
    }
  }
  return out;
}

}  // namespace coll
