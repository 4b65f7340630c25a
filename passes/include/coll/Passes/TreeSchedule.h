//===- TreeSchedule.h - tree schedules of rooted collectives ----*- C++ -*-===//
//
// Trees (flat, binomial, hierarchical) come from the runtime's
// coll/trees.hpp, the same functions generated code calls, so the program
// the verifier proves is the schedule that runs.
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
/// builder's insertion point. Reductions (reduce, allreduce) send whole
/// vectors (one part); gather and scatter send each subtree's blocks (part b
/// is rank b's block). allreduce is a reduce to rank 0 and a broadcast.
ProgramOp expandTreeCollective(CollectiveOp spec, int64_t P,
                               mlir::OpBuilder &builder);

} // namespace coll

#endif
