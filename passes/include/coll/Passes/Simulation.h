//===- Simulation.h - exact dataflow of a step program ----------*- C++ -*-===//
//
// Runs a coll.program on sets of contributions: which ranks' inputs to
// which parts each (rank, part) holds, and whether it still holds them. The dataflow check
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

  /// The state holds P^2 slots of P^2 bits: past about 2^30 bits in all
  /// (P ~ 180) the simulation says so here instead of running out of
  /// memory. Returns the error message, or nullopt when it fits.
  static std::optional<std::string> tooLarge(ProgramOp program);

  /// Applies one step; all transfers of a step read the state before it.
  std::optional<Violation> apply(StepOp step, int64_t index);
  /// Checks the state after the last step.
  std::optional<Violation> finish(int64_t numSteps) const;
  /// Runs the whole program and returns the first violation.
  static std::optional<Violation> run(ProgramOp program);

  /// Whether `rank` holds `part` as the collective must deliver it.
  bool holdsResult(int64_t rank, int64_t part) const;

private:
  /// Tokens are contributions: token part * ranks + rank is `rank`'s input
  /// to `part`. A part received as another part carries its tokens along.
  /// Where a value first counted a contribution twice: a slot that is not
  /// delivered (an exclusive scan's carry, a non-root partial) may hold
  /// such a value harmlessly; it is a violation when it reaches a result.
  /// Where a value first counted a contribution twice; reported there if
  /// the value is still in a result slot at the end.
  struct Twice {
    int64_t step, rank, part;
    std::string message;
    mlir::Operation *at = nullptr;
  };
  struct Slot {
    llvm::BitVector tokens;
    bool held = true;
    int64_t givenAwayAt = -1;
    std::optional<Twice> twice;
  };
  /// The contributions delivered slot (rank, part) must hold
  /// (ProgramOp::expects).
  llvm::BitVector expected(int64_t rank, int64_t part) const;
  /// Whether `s` holds exactly those contributions.
  bool complete(const Slot &s, int64_t rank, int64_t part) const;
  /// Whether some delivered slot needs contribution `token`: losing the
  /// last copy of one nobody needs is no violation.
  bool needed(int64_t token) const;
  /// "gave away at step 3", or "does not hold (it never received it)".
  static std::string lostWhen(const Slot &s);
  /// Replaces a slot's value, keeping the holder counts in step.
  void assign(Slot &s, const llvm::BitVector &tokens, bool held);
  Slot &slot(int64_t rank, int64_t part) { return slots[rank * parts + part]; }
  const Slot &slot(int64_t rank, int64_t part) const {
    return slots[rank * parts + part];
  }
  /// "{0, 2}" for contributions to `part`; others as "rank 1's part 3".
  std::string describe(const llvm::BitVector &set, int64_t part) const;

  mutable ProgramOp program; // op accessors are not const
  PartRules rules;           // the program's, read once
  int64_t ranks, parts;
  std::vector<Slot> slots;
  /// How many held slots hold each token.
  std::vector<int64_t> holders;
};

} // namespace coll

#endif
