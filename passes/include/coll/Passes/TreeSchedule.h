//===- TreeSchedule.h - tree schedules of rooted collectives ----*- C++ -*-===//
//
// Trees (flat, binomial, chain, hierarchical) come from the runtime's
// coll/trees.hpp with their plans (coll::treePlan), the
// functions generated code runs, so the program the verifier proves is the
// schedule that runs.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_TREESCHEDULE_H
#define COLL_PASSES_TREESCHEDULE_H

#include "coll/Dialect/CollOps.h"
#include "coll/trees.hpp"

namespace coll {

/// The runtime tree a tree-scheduled spec names.
Tree treeOf(CollectiveOp spec);

/// Builds the coll.program of a tree-scheduled `spec` for P ranks at the
/// builder's insertion point: every rank's coll::treePlan, step by step.
ProgramOp expandTreeCollective(CollectiveOp spec, int64_t P,
                               mlir::OpBuilder &builder);

} // namespace coll

#endif
