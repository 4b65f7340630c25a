// Structure facts of the group schedules (design.md 3.1, seeds/003).
#include "Helpers.h"

#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Simulation.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

using namespace coll;
using collc_test::expand;
using collc_test::spec;

static int64_t ceilLog2(int64_t P) {
  int64_t k = 0;
  while ((int64_t(1) << k) < P)
    ++k;
  return k;
}

/// Parts each rank sends over the whole program.
static std::vector<int64_t> partsSent(ProgramOp program) {
  std::vector<int64_t> sent(program.getNumRanks(), 0);
  for (StepOp step : program.getBody().getOps<StepOp>())
    for (size_t t = 0; t < step.getNumTransfers(); ++t)
      sent[step.getSources()[t]] += step.getTransferParts(t).size();
  return sent;
}

static int64_t numSteps(ProgramOp program) {
  return std::distance(program.getBody().getOps<StepOp>().begin(),
                       program.getBody().getOps<StepOp>().end());
}

TEST_CASE("group butterfly: 2 ceil(log2 P) steps and 2(P-1) parts per rank "
          "for every P from 1 to 64") {
  mlir::MLIRContext context;
  for (int64_t P = 1; P <= 64; ++P) {
    CAPTURE(P);
    mlir::OwningOpRef<mlir::ModuleOp> module;
    ProgramOp program =
        expand(context, module, spec("cyclic", "butterfly(r = 0)"), P);
    CHECK(numSteps(program) == 2 * ceilLog2(P));
    for (int64_t sent : partsSent(program))
      CHECK(sent == 2 * (P - 1));
    CHECK_FALSE(Simulation::run(program).has_value());
  }
}

TEST_CASE("ring: 2(P-1) steps of one part each for every P from 1 to 64") {
  mlir::MLIRContext context;
  for (int64_t P = 1; P <= 64; ++P) {
    CAPTURE(P);
    mlir::OwningOpRef<mlir::ModuleOp> module;
    ProgramOp program = expand(context, module, spec("cyclic", "linear"), P);
    CHECK(numSteps(program) == 2 * (P - 1));
    for (StepOp step : program.getBody().getOps<StepOp>())
      for (size_t t = 0; t < step.getNumTransfers(); ++t) {
        CHECK(step.getTransferParts(t).size() == 1);
        // every message goes to the right-hand neighbour
        CHECK(step.getDestinations()[t] == (step.getSources()[t] + 1) % P);
      }
    CHECK_FALSE(Simulation::run(program).has_value());
  }
}

TEST_CASE("recursive halving/doubling is the butterfly on xor(P)") {
  mlir::MLIRContext context;
  for (int64_t P = 1; P <= 64; P *= 2) {
    CAPTURE(P);
    mlir::OwningOpRef<mlir::ModuleOp> module;
    ProgramOp program = expand(context, module,
                               spec("xor", "butterfly(r = 0)",
                                    "ranks P where P == 2^k;"),
                               P);
    CHECK(numSteps(program) == 2 * ceilLog2(P));
    for (int64_t sent : partsSent(program))
      CHECK(sent == 2 * (P - 1));
    CHECK_FALSE(Simulation::run(program).has_value());
  }

  // P = 4: partners x xor 1, then x xor 2, as in seeds/000.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramOp program = expand(
      context, module,
      spec("xor", "butterfly(r = 0)", "ranks P where P == 2^k;"), 4);
  auto steps = llvm::to_vector(program.getBody().getOps<StepOp>());
  REQUIRE(steps.size() == 4);
  CHECK(steps[0].getDestinations() == llvm::ArrayRef<int64_t>{1, 0, 3, 2});
  CHECK(steps[1].getDestinations() == llvm::ArrayRef<int64_t>{2, 3, 0, 1});
  CHECK(steps[2].getDestinations() == llvm::ArrayRef<int64_t>{2, 3, 0, 1});
  CHECK(steps[3].getDestinations() == llvm::ArrayRef<int64_t>{1, 0, 3, 2});
  // Rank 0 keeps the lower half: it sends the parts in chunks 2 and 3.
  REQUIRE(program.getChunkOfPart().has_value());
  CHECK(*program.getChunkOfPart() == llvm::ArrayRef<int64_t>{0, 2, 1, 3});
  CHECK(steps[0].getTransferParts(0) == llvm::ArrayRef<int64_t>{1, 3});
}

TEST_CASE("group algebra: the action is regular and every move is one "
          "permutation") {
  for (GroupKind kind : {GroupKind::cyclic, GroupKind::xor_}) {
    for (int64_t P = 1; P <= 32; ++P) {
      if (kind == GroupKind::xor_ && (P & (P - 1)))
        continue;
      CAPTURE(P);
      GroupAlgebra group(kind, P);
      for (int64_t x = 0; x < P; ++x) {
        std::vector<bool> seen(P, false);
        for (int64_t k = 0; k < P; ++k) {
          int64_t part = group.inverse(k, x);
          CHECK(group.act(k, part) == x);
          CHECK_FALSE(seen[part]);
          seen[part] = true;
        }
      }
    }
  }
}

TEST_CASE("butterfly moves: placements c.. onto 0.., halving the vectors") {
  // P = 7: n = 7 -> 4 -> 2 -> 1, so (c, h) = (4, 3), (2, 2), (1, 1).
  std::vector<GroupMove> moves = expandGroupSchedule(ScheduleKind::butterfly, 7);
  REQUIRE(moves.size() == 6);
  int64_t expected[6][3] = {{4, 0, 3}, {2, 0, 2}, {1, 0, 1},
                            {0, 1, 1}, {0, 2, 2}, {0, 4, 3}};
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(moves[i].from == expected[i][0]);
    CHECK(moves[i].to == expected[i][1]);
    CHECK(moves[i].vectors == expected[i][2]);
    CHECK(moves[i].action == (i < 3 ? Action::combine : Action::copy));
  }
}

TEST_CASE("reduce_scatter and allgather are the two halves: ceil(log2 P) or "
          "P - 1 steps, P - 1 parts sent per rank, for every P from 1 to 64") {
  for (int64_t P = 1; P <= 64; ++P) {
    CAPTURE(P);
    for (ScheduleKind schedule : {ScheduleKind::linear, ScheduleKind::butterfly})
      for (CollectiveKind kind :
           {CollectiveKind::reduce_scatter, CollectiveKind::allgather}) {
        std::vector<GroupMove> moves = expandGroupSchedule(schedule, P, kind);
        int64_t steps = static_cast<int64_t>(moves.size()), vectors = 0;
        for (const GroupMove &m : moves) {
          vectors += m.vectors;
          CHECK(m.action == (kind == CollectiveKind::reduce_scatter
                                 ? Action::combine
                                 : Action::copy));
        }
        // Every move sends `vectors` parts from every rank.
        CHECK(vectors == P - 1);
        CHECK(steps == (schedule == ScheduleKind::linear ? P - 1 : ceilLog2(P)));
      }
  }
}

// The transfers of a range move are every rank's coll::vectorStep; against
// the closed form of a cyclic move (design.md 3.1): rank x sends parts
// x - from - i (mod P) to x + to - from, in the order of their chunks.
TEST_CASE("a move's transfers: rank x sends t_{from+i}^-1(x) to "
          "t_to t_from^-1(x)") {
  for (int64_t P = 2; P <= 12; ++P)
    for (int64_t from = 0; from < P; ++from)
      for (int64_t to = 0; to < P; ++to)
        for (int64_t vectors = 1;
             vectors + std::max(from, to) <= P && from != to; ++vectors) {
          CAPTURE(P);
          CAPTURE(from);
          CAPTURE(to);
          CAPTURE(vectors);
          std::vector<Transfer> transfers =
              transfersOfMove(GroupAlgebra(GroupKind::cyclic, P), from, to,
                              vectors);
          REQUIRE(static_cast<int64_t>(transfers.size()) == P);
          for (int64_t x = 0; x < P; ++x) {
            const Transfer &t = transfers[x];
            CHECK(t.src == x);
            CHECK(t.dst == ((x + to - from) % P + P) % P);
            std::vector<int64_t> parts;
            for (int64_t i = 0; i < vectors; ++i)
              parts.push_back(((x - from - i) % P + P) % P);
            std::sort(parts.begin(), parts.end());
            CHECK(t.sent == parts);
            CHECK(t.received == parts);
          }
        }
}

// On xor(8) the range [1, 3) -> [2, 4) is no permutation (1 xor 3 = 2,
// 2 xor 3 = 1): coll::rangeMoves says where the vectors really go, and
// the group level reads them as those slot moves.
TEST_CASE("rangeMoves: an unaligned xor range goes where its first vector's "
          "permutation takes it") {
  XorGroup group(8);
  std::vector<VectorMove> moves =
      rangeMoves(group, GroupMove{1, 2, 2, Action::copy, ""});
  REQUIRE(moves.size() == 2);
  CHECK(moves[0].source == 1);
  CHECK(moves[0].destination == 2);
  CHECK(moves[1].source == 2);
  CHECK(moves[1].destination == 1);
}

// Moves of one step with two permutations: a rank's sends go to two peers,
// one message each, and a move within a placement is a local copy.
TEST_CASE("vectorStep: one message per peer, local moves received from "
          "oneself") {
  CyclicGroup group(5);
  // Slot 1 -> 2 (t_1 t_... moves by +1), slot 0 -> 3 (by +3), slot 4 -> 9
  // (placement 4 onto copy 1 of placement 4: local).
  std::vector<VectorMove> moves{{1, 2}, {0, 3}, {4, 9}};
  PlanStep step = vectorStep(group, moves, Action::copy, 0);
  REQUIRE(step.sends.size() == 2);
  CHECK(step.sends[0].peer == 1);
  CHECK(step.sends[0].parts == std::vector<int>{4});   // t_1^-1(0)
  CHECK(step.sends[0].peerParts == std::vector<int>{4}); // t_2^-1(1)
  CHECK(step.sends[1].peer == 3);
  CHECK(step.sends[1].parts == std::vector<int>{0});
  CHECK(step.sends[1].peerParts == std::vector<int>{0});
  REQUIRE(step.receives.size() == 3);
  CHECK(step.receives[0].peer == 4);
  CHECK(step.receives[1].peer == 2);
  CHECK(step.receives[2].peer == 0); // the local copy
  CHECK(step.receives[2].peerParts == std::vector<int>{1});
  CHECK(step.receives[2].parts == std::vector<int>{6});
  // Every rank's steps together: each message received as sent.
  std::vector<Transfer> transfers = transfersOfRanks(
      5, [&](int x) { return vectorStep(group, moves, Action::copy, x); });
  CHECK(transfers.size() == 15);
}

// The assembler refuses a plan whose two sides of a message disagree, and
// names the message (what expandPlans and transfersOfRanks report).
TEST_CASE("StepAssembly: a message received otherwise than sent is named") {
  auto step = [](std::vector<PlanMessage> sends,
                 std::vector<PlanMessage> receives) {
    PlanStep s;
    s.sends = std::move(sends);
    s.receives = std::move(receives);
    return s;
  };
  {
    StepAssembly a;
    a.add(0, step({{1, {0, 2}, {0, 2}}}, {}));
    a.add(1, step({}, {{0, {0, 2}, {0, 2}}}));
    CHECK(a.mismatch() == "");
    REQUIRE(a.transfers().size() == 1);
    CHECK(a.transfers()[0].sent == std::vector<int64_t>{0, 2});
  }
  {
    StepAssembly a; // the receiver files part 2 under 3
    a.add(0, step({{1, {0, 2}, {0, 2}}}, {}));
    a.add(1, step({}, {{0, {0, 3}, {0, 2}}}));
    CHECK(a.mismatch() == "rank 0 sends rank 1 its parts [0, 2] as [0, 2], "
                          "which rank 1 does not receive so");
  }
  {
    StepAssembly a; // a receive nobody sends
    a.add(2, step({}, {{1, {4}, {5}}}));
    CHECK(a.mismatch() == "rank 1 sends rank 2 its parts [5] as [4] only in "
                          "rank 2's plan, not in its own");
  }
  {
    StepAssembly a; // a message received twice
    a.add(0, step({{1, {0}, {0}}}, {}));
    a.add(1, step({}, {{0, {0}, {0}}, {0, {0}, {0}}}));
    CHECK(a.mismatch() == "rank 0 sends rank 1 its parts [0] as [0] only in "
                          "rank 1's plan, not in its own");
  }
  {
    StepAssembly a;
    a.add(3, step({{3, {1}, {2}}}, {}));
    CHECK(a.mismatch() ==
          "rank 3 sends to itself (a local copy is a receive from itself)");
  }
  {
    StepAssembly a; // a local copy needs no send
    a.add(3, step({}, {{3, {2}, {1}}}));
    CHECK(a.mismatch() == "");
    REQUIRE(a.transfers().size() == 1);
    CHECK(a.transfers()[0].src == 3);
    CHECK(a.transfers()[0].dst == 3);
    CHECK(a.transfers()[0].sent == std::vector<int64_t>{1});
    CHECK(a.transfers()[0].received == std::vector<int64_t>{2});
  }
}
