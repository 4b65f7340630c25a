//===- PlanProgram.h - coll.program from the runtime's plans ----*- C++ -*-===//
//
// A family's coll.program is every rank's coll::Plan (the plan the runtime
// executes), step by step, so the program the verifier proves is the
// schedule that runs.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_PLANPROGRAM_H
#define COLL_PASSES_PLANPROGRAM_H

#include "coll/Dialect/CollOps.h"
#include "coll/plan.hpp"
#include "coll/scans.hpp"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace coll {

/// One message of a step: `sent` parts of `src` arrive at `dst`, which
/// takes the i-th as its part `received[i]`.
struct Transfer {
  int64_t src, dst;
  std::vector<int64_t> sent, received;
};

/// One program step's transfers, assembled from every rank's part of it
/// (coll::PlanStep): each rank's sends, and its local copies (receives
/// from itself). The receives from other ranks are kept to check that
/// every message is received exactly as it is sent: a plan whose two sides
/// disagree is not the program it expands to.
class StepAssembly {
public:
  void add(int rank, const PlanStep &step);
  /// "" when every send is received once, as sent, and nothing else is
  /// received; otherwise the first message that is not, with its ranks.
  std::string mismatch() const;
  const std::vector<Transfer> &transfers() const { return sends; }
  std::vector<Transfer> takeTransfers() { return std::move(sends); }

private:
  std::vector<Transfer> sends, receives; // receives: as their senders'
  int selfSender = -1; // a rank whose plan lists a send to itself
};

/// The transfers of one step made by every one of P ranks, rank x's part
/// being stepOf(x); fatal (a runtime plan's bug) if its sides disagree.
std::vector<Transfer>
transfersOfRanks(int64_t P, llvm::function_ref<PlanStep(int rank)> stepOf);

/// A step's transfers as coll.step attributes: sources, destinations, the
/// sent parts and the received ones; `moved` when some transfer files its
/// parts under other indices (only then does a step state them).
struct TransferAttrs {
  llvm::SmallVector<int64_t> sources, destinations;
  llvm::SmallVector<mlir::Attribute> sent, received;
  bool moved = false;
};
TransferAttrs transferAttrs(mlir::OpBuilder &builder,
                            llvm::ArrayRef<Transfer> transfers);

/// Builds the coll.program of `spec` for P ranks at the builder's insertion
/// point from planOf(r) for every rank r: step s of the program holds every
/// rank's sends of its step s (and its local copies, a receive from itself)
/// as transfers (a StepAssembly, so the receives are checked against the
/// sends); steps no rank moves anything in are left out. One plan is
/// alive at a time, so memory is the program's.
/// `group`, when given, is the program's group attribute.
ProgramOp expandPlans(CollectiveOp spec, int64_t P, mlir::OpBuilder &builder,
                      llvm::function_ref<Plan(int rank)> planOf,
                      GroupKindAttr group = {});

/// The runtime's name of a collective kind (coll::Kind spells them alike).
Kind runtimeKind(CollectiveKind kind);

/// The runtime's scan schedule of a scan spec (linear or doubling).
ScanSchedule scanScheduleOf(CollectiveOp spec);

} // namespace coll

#endif
