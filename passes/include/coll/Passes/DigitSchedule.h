//===- DigitSchedule.h - all-to-all by digit routing ------------*- C++ -*-===//
//
// Direct, Bruck (radix) and ReTri (balanced ternary) routings come from the
// runtime's coll/digits.hpp, the same functions generated code calls, so the
// program the verifier proves is the schedule that runs.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_DIGITSCHEDULE_H
#define COLL_PASSES_DIGITSCHEDULE_H

#include "coll/Dialect/CollOps.h"
#include "coll/digits.hpp"

namespace coll {

/// The runtime routing a digit-routed spec names.
Digits digitsOf(CollectiveOp spec);

/// Builds the coll.program of a digit-routed `spec` for P ranks at the
/// builder's insertion point: part j of every rank is its block at offset j;
/// one coll.step per routing step, phase "phase k".
ProgramOp expandDigitCollective(CollectiveOp spec, int64_t P,
                                mlir::OpBuilder &builder);

} // namespace coll

#endif
