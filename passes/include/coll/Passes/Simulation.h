//===- Simulation.h - exact dataflow of a step program ----------*- C++ -*-===//
//
// Runs a coll.program on sets of contributions: which ranks' inputs each
// (rank, part) holds, and whether it still holds them. The dataflow check
// reports the first violation it finds; `collc trace` runs the same
// simulation and prints values beside it.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_SIMULATION_H
#define COLL_PASSES_SIMULATION_H

#include "coll/Dialect/CollOps.h"

#include "llvm/ADT/BitVector.h"

#include <optional>
#include <string>
#include <vector>

namespace coll {

struct Violation {
  std::string property; // coverage, ownership or matching
  int64_t step = -1;    // -1: after the last step
  int64_t rank = -1;
  int64_t part = -1;
  std::string message;
  mlir::Operation *at = nullptr;
};

class Simulation {
public:
  explicit Simulation(ProgramOp program);

  /// Applies one step; all transfers of a step read the state before it.
  std::optional<Violation> apply(StepOp step, int64_t index);
  /// Checks the state after the last step.
  std::optional<Violation> finish(int64_t numSteps) const;
  /// Runs the whole program and returns the first violation.
  static std::optional<Violation> run(ProgramOp program);

  /// Whether `rank` holds `part` with every rank's contribution.
  bool holdsResult(int64_t rank, int64_t part) const;

private:
  struct Slot {
    llvm::BitVector contributions;
    bool held = true;
    int64_t givenAwayAt = -1;
  };
  Slot &slot(int64_t rank, int64_t part) { return slots[rank * parts + part]; }
  const Slot &slot(int64_t rank, int64_t part) const {
    return slots[rank * parts + part];
  }
  static std::string describe(const llvm::BitVector &set);

  ProgramOp program;
  int64_t ranks, parts;
  std::vector<Slot> slots;
};

} // namespace coll

#endif
