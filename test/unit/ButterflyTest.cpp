// Structure facts of the shifted group butterfly
// (runtime/include/coll/butterfly.hpp; seeds/003, design.md 3.1).
#include "coll/butterfly.hpp"
#include "coll/groups.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace coll;

namespace {

using Set = std::set<int>;

enum class GroupShape { cyclic, xor_ };

ButterflyPlan planOf(int P, int r, GroupShape shape) {
  return shape == GroupShape::cyclic ? butterflyPlan(CyclicGroup(P), r)
                                     : butterflyPlan(XorGroup(P), r);
}

int compose(GroupShape shape, int P, int a, int b) {
  return shape == GroupShape::cyclic ? (a + b) % P : (a ^ b);
}

int ceilLog2(int P) {
  int k = 0;
  while ((1 << k) < P)
    ++k;
  return k;
}

/// Runs the plan on explicit contribution sets: every move of a step names
/// one permutation, folds never merge overlapping sets or read empty slots,
/// and every placement of copy 0 ends with all P contributions.
void checkPlanDelivers(const ButterflyPlan &plan, GroupShape shape) {
  const int P = plan.P;
  CAPTURE(P);
  CAPTURE(plan.r);
  std::vector<Set> value(static_cast<size_t>(plan.copies * P));
  std::vector<bool> held(value.size(), false);
  for (int q = 0; q < P; ++q) {
    value[q] = {q};
    held[q] = true;
  }
  for (const ButterflyStep &step : plan.steps) {
    const std::vector<Set> before = value;
    const std::vector<bool> heldBefore = held;
    int permutation = -1;
    for (auto [index, dst] : step.received) {
      const int src = step.sent.at(static_cast<size_t>(index));
      REQUIRE(heldBefore[src]);
      // The element t_k with t_k(src placement) = dst placement.
      int k = 0;
      while (compose(shape, P, src % P, k) != dst % P)
        ++k;
      if (step.kind == ButterflyStep::Kind::local) {
        CHECK(k == 0);
      } else {
        CHECK(k != 0);
        CHECK((permutation < 0 || permutation == k));
        permutation = k;
      }
      if (step.kind == ButterflyStep::Kind::fold) {
        REQUIRE(heldBefore[dst]);
        for (int t : before[src])
          CHECK(value[dst].count(t) == 0); // never counted twice
        value[dst].insert(before[src].begin(), before[src].end());
      } else {
        value[dst] = before[src];
        held[dst] = true;
      }
    }
  }
  for (int q = 0; q < P; ++q)
    CHECK(value[q].size() == static_cast<size_t>(P));
}

/// The distinct (placement, contribution set) vectors each reduction level
/// sends, from the shifted schedules themselves: one copy of each is what
/// design.md 3.1 asks the message to carry.
std::vector<size_t> distinctSentPerLevel(int P, int r, GroupShape shape) {
  const int levels = ceilLog2(P);
  std::vector<int> sizes{P};
  for (int l = 0; l < levels; ++l)
    sizes.push_back((sizes.back() + 1) / 2);
  const int shifts = sizes[static_cast<size_t>(levels - r)];
  std::vector<Set> base(static_cast<size_t>(P));
  for (int i = 0; i < P; ++i)
    base[static_cast<size_t>(i)] = {i};
  std::vector<size_t> counts;
  for (int l = 0; l < levels; ++l) {
    const int n = sizes[static_cast<size_t>(l)], c = (n + 1) / 2, h = n / 2;
    std::set<std::pair<int, Set>> sent;
    for (int s = 0; s < shifts; ++s)
      for (int i = 0; i < h; ++i) {
        Set shifted;
        for (int t : base[static_cast<size_t>(c + i)])
          shifted.insert(compose(shape, P, t, s));
        sent.insert({compose(shape, P, c + i, s), shifted});
      }
    counts.push_back(sent.size());
    for (int i = 0; i < h; ++i)
      base[static_cast<size_t>(i)].insert(base[static_cast<size_t>(c + i)].begin(),
                                          base[static_cast<size_t>(c + i)].end());
  }
  return counts;
}

} // namespace

TEST_CASE("butterfly(r) takes 2*ceil(log2 P) - r communication steps") {
  for (int P = 1; P <= 64; ++P)
    for (int r = 0; r <= ceilLog2(P); ++r) {
      CAPTURE(P);
      CAPTURE(r);
      CHECK(planOf(P, r, GroupShape::cyclic).communicationSteps() ==
            2 * ceilLog2(P) - r);
      if ((P & (P - 1)) == 0)
        CHECK(planOf(P, r, GroupShape::xor_).communicationSteps() ==
              2 * ceilLog2(P) - r);
    }
}

TEST_CASE("every shifted butterfly delivers the sum to every placement") {
  for (int P = 1; P <= 40; ++P)
    for (int r = 0; r <= ceilLog2(P); ++r) {
      checkPlanDelivers(planOf(P, r, GroupShape::cyclic),
                        GroupShape::cyclic);
      if ((P & (P - 1)) == 0)
        checkPlanDelivers(planOf(P, r, GroupShape::xor_),
                          GroupShape::xor_);
    }
}

TEST_CASE("each fold sends one copy of every distinct vector, no more") {
  for (int P = 2; P <= 40; ++P)
    for (int r = 0; r <= ceilLog2(P); ++r) {
      CAPTURE(P);
      CAPTURE(r);
      ButterflyPlan plan = planOf(P, r, GroupShape::cyclic);
      std::vector<size_t> sent;
      for (const ButterflyStep &step : plan.steps)
        if (step.kind == ButterflyStep::Kind::fold)
          sent.push_back(step.sent.size());
      CHECK(sent == distinctSentPerLevel(P, r, GroupShape::cyclic));
    }
}

TEST_CASE("design.md's worked example: P = 7, r = 1") {
  ButterflyPlan plan = planOf(7, 1, GroupShape::cyclic);
  CHECK(plan.shifts == 2);
  CHECK(plan.copies == 2); // {3} and {3, 0} share placement 3
  std::vector<const ButterflyStep *> folds;
  for (const ButterflyStep &step : plan.steps)
    if (step.kind == ButterflyStep::Kind::fold)
      folds.push_back(&step);
  REQUIRE(folds.size() == 3);
  // Step 0 moves placements 4, 5, 6 (shift 0) and 0 (shift 1): 4, not 3.
  CHECK(folds[0]->sent == std::vector<int>{4, 5, 6, 0});
}

TEST_CASE("the corners: r = 0 is the plain butterfly, r = max has no "
          "distribution, and r beyond ceil(log2 P) is r = max") {
  for (int P : {5, 8, 12, 13}) {
    CAPTURE(P);
    ButterflyPlan zero = planOf(P, 0, GroupShape::cyclic);
    CHECK(zero.copies == 1);
    CHECK(zero.shifts == 1);
    ButterflyPlan top = planOf(P, kLatencyOptimal, GroupShape::cyclic);
    CHECK(top.r == ceilLog2(P));
    CHECK(top.shifts == P);
    for (const ButterflyStep &step : top.steps)
      CHECK(step.kind != ButterflyStep::Kind::copy);
  }
  // Power-of-two P needs no scratch copy at any r: every vector of a level
  // is the only one at its placement (it is recursive doubling at r = max,
  // P parts per step).
  for (int r = 0; r <= 6; ++r) {
    CHECK(planOf(64, r, GroupShape::cyclic).copies == 1);
    CHECK(planOf(64, r, GroupShape::xor_).copies == 1);
  }
  for (const ButterflyStep &step :
       planOf(64, kLatencyOptimal, GroupShape::xor_).steps)
    CHECK(step.sent.size() == 64);
}

// coll::butterflyRankPlan sends a slot that goes to two destinations twice
// (a transfer pairs one part with one part); no communication step needs
// that, so no byte travels twice. Only local copies read a slot twice.
TEST_CASE("butterfly: a communication step sends each slot once") {
  for (int P = 1; P <= 128; ++P)
    for (int r = 0; r <= 8; ++r)
      for (GroupShape shape : {GroupShape::cyclic, GroupShape::xor_}) {
        if (shape == GroupShape::xor_ && (P & (P - 1)))
          continue;
        CAPTURE(P);
        CAPTURE(r);
        for (const ButterflyStep &step : planOf(P, r, shape).steps) {
          if (step.kind == ButterflyStep::Kind::local)
            continue;
          std::set<int> seen;
          for (auto [index, dst] : step.received)
            CHECK(seen.insert(index).second);
          CHECK(seen.size() == step.sent.size());
        }
      }
}

// The rank plan of butterfly(1) on cyclic(7), step by step: the exact
// messages of rank 0 (slot c * 7 + p is part c * 7 + (0 - p) mod 7).
TEST_CASE("butterfly: rank plan of r = 1 on cyclic(7)") {
  CyclicGroup group(7);
  ButterflyPlan butterfly = butterflyPlan(group, 1);
  Plan plan = butterflyRankPlan(butterfly, group, 0);
  CHECK(plan.parts == 7);
  CHECK(plan.scratchParts == (butterfly.copies - 1) * 7);
  REQUIRE(plan.steps.size() == butterfly.steps.size());
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const ButterflyStep &b = butterfly.steps[s];
    const PlanStep &step = plan.steps[s];
    CAPTURE(s);
    auto part = [](int slot, int x) {
      return slot / 7 * 7 + ((x - slot % 7) % 7 + 7) % 7;
    };
    if (b.kind == ButterflyStep::Kind::local) {
      CHECK(step.sends.empty());
      REQUIRE(step.receives.size() == 1);
      CHECK(step.receives[0].peer == 0);
      CHECK(step.action == Action::copy);
      CHECK(step.receives[0].parts.size() == b.received.size());
      continue;
    }
    CHECK(step.action ==
          (b.kind == ButterflyStep::Kind::fold ? Action::fold : Action::copy));
    REQUIRE(step.sends.size() == 1);
    REQUIRE(step.receives.size() == 1);
    // t_to t_from^-1 (0) = to - from; the sender is from - to.
    CHECK(step.sends[0].peer == ((b.to - b.from) % 7 + 7) % 7);
    CHECK(step.receives[0].peer == ((b.from - b.to) % 7 + 7) % 7);
    std::multiset<std::pair<int, int>> expected, found;
    for (auto [index, dst] : b.received)
      expected.insert({part(b.sent[static_cast<size_t>(index)], 0),
                       part(dst, step.sends[0].peer)});
    for (size_t i = 0; i < step.sends[0].parts.size(); ++i)
      found.insert({step.sends[0].parts[i], step.sends[0].peerParts[i]});
    CHECK(found == expected);
  }
}
