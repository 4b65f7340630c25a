//===- VerifyPasses.h - Z3 proofs of step programs --------------*- C++ -*-===//
#ifndef COLL_PASSES_VERIFYPASSES_H
#define COLL_PASSES_VERIFYPASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace coll {

#define GEN_PASS_DECL
#include "coll/Passes/VerifyPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "coll/Passes/VerifyPasses.h.inc"

/// How coll-prove-rank-counts ended, for a driver's exit code: every spec
/// proven, a property violated (a counterexample), one Z3 could not settle,
/// or a proof cache that cannot be used.
enum class ProofOutcome { proven, violated, notProven, unusableCache };

/// coll-prove-rank-counts, reporting how it ended in `outcome`. An unusable
/// cache is written there before its error is emitted (at the module), so
/// a driver's diagnostic handler can tell that error, which is about the
/// command line, from a spec's.
std::unique_ptr<mlir::Pass>
createProveRankCounts(const ProveRankCountsOptions &options,
                      ProofOutcome *outcome);

} // namespace coll

#endif
