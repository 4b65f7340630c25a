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

#include "llvm/ADT/STLFunctionalExtras.h"

namespace coll {

/// Builds the coll.program of `spec` for P ranks at the builder's insertion
/// point from planOf(r) for every rank r: step s of the program holds every
/// rank's sends of its step s (and its local copies, a receive from itself)
/// as transfers; steps no rank moves anything in are left out. One plan is
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
