// Structure facts of the group schedules (design.md 3.1, seeds/003).
#include "Helpers.h"

#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Simulation.h"

#include <doctest/doctest.h>

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
