#pragma once
// All-to-all by digit routing (seeds/002, design.md 3.2). Block j of a rank
// is the block at offset j: rank r starts with its block for r + j and ends
// with the block of r - j. A block never changes its offset, so "rank i's
// block j" names exactly one block at every moment, and every rank sends
// and receives the same offsets in a step:
//   - direct: step k sends block k to i + k (n - 1 steps of one phase);
//   - radix b (Bruck): in phase k, blocks whose k-th base-b digit is v go to
//     i + v b^k, one step per digit value v = 1 .. b-1;
//   - balanced ternary (ReTri): the centered offset of j, in (-n/2, n/2],
//     has balanced-ternary digits tau_k in {-1, 0, +1}; in phase k blocks
//     with tau_k = +1 go to i + 3^k and those with tau_k = -1 to i - 3^k
//     (two steps of one message each way: the runtime's step is one send
//     and one receive). ceil(log3 n) phases.
//
// The compiler expands exactly these steps into the program it verifies,
// and generated code runs them, so the schedule that is proven is the one
// that runs. Plain C++17: no MPI, no exceptions.

#include <string>
#include <vector>

#include "coll/plan.hpp"

namespace coll {

enum class DigitSystem { direct, radix, balancedTernary };

struct Digits {
  DigitSystem system = DigitSystem::direct;
  int radix = 2;  // radix: the base (>= 2)
};

struct DigitStep {
  int phase;
  int offset;              // rank i sends to i + offset and receives from i - offset (mod n)
  std::vector<int> blocks;  // the offsets j of the blocks sent (and received)
};

namespace detail {

// Digit k of offset j (0 <= j < n) in the routing's number system.
inline int digitOf(const Digits& digits, int n, int j, int k) {
  if (digits.system == DigitSystem::balancedTernary) {
    int c = j > n / 2 ? j - n : j;  // the centered offset, in (-n/2, n/2]
    int digit = 0;
    for (int i = 0; i <= k; ++i) {
      int r = ((c % 3) + 3) % 3;
      if (r == 2) r = -1;
      digit = r;
      c = (c - r) / 3;
    }
    return digit;
  }
  for (int i = 0; i < k; ++i) j /= digits.radix;
  return j % digits.radix;
}

}  // namespace detail

// The steps of the routing for n ranks, in order.
inline std::vector<DigitStep> digitSteps(const Digits& digits, int n) {
  std::vector<DigitStep> steps;
  if (n <= 1) return steps;
  if (digits.system == DigitSystem::direct) {
    // One phase: every rank meets every other, one message per step.
    for (int k = 1; k < n; ++k) steps.push_back({0, k, {k}});
    return steps;
  }
  const int base = digits.system == DigitSystem::radix ? digits.radix : 3;
  // Phases: enough digits for every offset (ceil(log_base n)).
  int phases = 0;
  for (long long reach = 1; reach < n; reach *= base) ++phases;
  long long power = 1;
  for (int k = 0; k < phases; ++k, power *= base) {
    std::vector<int> values;
    if (digits.system == DigitSystem::balancedTernary)
      values = {+1, -1};
    else
      for (int v = 1; v < base; ++v) values.push_back(v);
    for (int v : values) {
      DigitStep step{k, static_cast<int>(((v * power) % n + n) % n), {}};
      for (int j = 0; j < n; ++j)
        if (detail::digitOf(digits, n, j, k) == v) step.blocks.push_back(j);
      if (!step.blocks.empty()) steps.push_back(step);
    }
  }
  return steps;
}

// Number of phases: steps of one phase can share a topology (seeds/002).
inline int digitPhases(const Digits& digits, int n) {
  const std::vector<DigitStep> steps = digitSteps(digits, n);
  return steps.empty() ? 0 : steps.back().phase + 1;
}

// Trivance allreduce (Juerss, Addanki, Schmid 2026; seeds/002) on n ranks:
// the core is the largest power of three m <= n, where phase k combines the
// values of r - 3^k, r and r + 3^k (`phases` = log3 m phases); the ranks
// beyond it fold into rank (r mod m) first, in `bands` bands of m ranks,
// and get the result back at the end.
struct TrivanceShape {
  int core;
  int phases;
  int bands;
};

inline TrivanceShape trivanceShape(int n) {
  TrivanceShape shape{1, 0, 0};
  while (shape.core <= n / 3) {
    shape.core *= 3;
    ++shape.phases;
  }
  shape.bands = n > 0 ? (n - 1) / shape.core : 0;
  return shape;
}

// The plan of a digit-routed alltoall for rank `rank` of n: part j is the
// block at offset j (relative, so every rank sends and receives the same
// parts in a step); each step of digitSteps sends its offsets to
// rank + offset and receives them from rank - offset.
inline Plan digitPlan(const Digits& digits, int n, int rank) {
  Plan plan = emptyPlan(Kind::alltoall, n, rank, n);
  for (const DigitStep& step : digitSteps(digits, n)) {
    PlanStep planStep;
    planStep.sends.push_back({(rank + step.offset) % n, step.blocks, step.blocks});
    planStep.receives.push_back({(rank - step.offset + n) % n, step.blocks, step.blocks});
    appendStep(plan, std::move(planStep), "phase " + std::to_string(step.phase));
  }
  return plan;
}

// The plan of the Trivance allreduce (trivanceShape) for rank `rank` of n,
// over part 0 (the value) and scratch part 1. The ranks of band b fold
// into rank - b m and get the result back at the end. Phase k (d = 3^k) is
// three steps of the program: the value to r + d, kept in part 1 (copy);
// the value to r - d, folded into part 0 (both read the pre-phase value);
// the local fold of part 1 into part 0. The first two run in one exchange
// (two ports; their parts are disjoint, which the executor checks).
inline Plan trivancePlan(int n, int rank) {
  Plan plan = emptyPlan(Kind::allreduce, n, rank, 1, 1);
  const TrivanceShape shape = trivanceShape(n);
  const int m = shape.core, x = rank;
  auto stepOf = [](Action action) {
    PlanStep step;
    step.action = action;
    return step;
  };
  for (int band = 1; band <= shape.bands; ++band) {  // the extras fold in
    PlanStep step = stepOf(Action::combine);
    if (x >= band * m && x < (band + 1) * m)
      step.sends.push_back({x - band * m, {0}, {0}});
    else if (x < m && x + band * m < n)
      step.receives.push_back({x + band * m, {0}, {0}});
    appendStep(plan, std::move(step), "fold in");
  }
  for (int d = 1, k = 0; d < m; d *= 3, ++k) {
    const std::string phase = "phase " + std::to_string(k);
    PlanStep right = stepOf(Action::copy), left = stepOf(Action::fold),
             merge = stepOf(Action::fold);
    if (x < m) {
      right.sends.push_back({(x + d) % m, {0}, {1}});
      right.receives.push_back({(x + m - d) % m, {1}, {0}});
      left.sends.push_back({(x + m - d) % m, {0}, {0}});
      left.receives.push_back({(x + d) % m, {0}, {0}});
      merge.receives.push_back({x, {0}, {1}});
    }
    const int exchange = appendStep(plan, std::move(right), phase);
    appendStep(plan, std::move(left), phase, exchange);  // both ports at once
    appendStep(plan, std::move(merge), phase);
  }
  for (int band = 1; band <= shape.bands; ++band) {  // the result goes back out
    PlanStep step = stepOf(Action::copy);
    if (x < m && x + band * m < n)
      step.sends.push_back({x + band * m, {0}, {0}});
    else if (x >= band * m && x < (band + 1) * m)
      step.receives.push_back({x - band * m, {0}, {0}});
    appendStep(plan, std::move(step), "copy out");
  }
  return plan;
}

}  // namespace coll
