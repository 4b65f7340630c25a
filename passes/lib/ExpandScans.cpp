//===- ExpandScans.cpp - scan schedules to coll.step ----------------------===//
//
// Scans fold prefixes upward: a fold step merges a copy of the sender's
// value into the receiver's, and the sender keeps its own (it is part of its
// result). `linear` is the chain 0 -> 1 -> ... -> P-1 (P - 1 steps);
// `doubling` is recursive doubling (Hillis and Steele, "Data parallel
// algorithms", CACM 1986): in step k every rank i sends to i + 2^k, so
// after it rank i holds ranks (i - 2^(k+1), i]; ceil(log2 P) steps. An
// exclusive scan carries the inclusive prefix in part 0 and ends with one
// shift: rank i's part 0 becomes rank i + 1's part 1, the result.
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"

#include "mlir/IR/Builders.h"

namespace coll {
#define GEN_PASS_DEF_EXPANDSCANS
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

ProgramOp coll::expandScanCollective(CollectiveOp spec, int64_t P,
                                     OpBuilder &builder) {
  bool exclusive = spec.getKind() == CollectiveKind::exclusive_scan;
  ProgramOp program = createProgram(spec, P, exclusive ? 2 : 1, builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());

  // One step: every (src, src + distance) with both ranks in range.
  auto emitStep = [&](StringRef phase, StepKind kind, int64_t distance,
                      int64_t firstSource, int64_t lastSource,
                      int64_t receivedAs) {
    SmallVector<int64_t> sources, destinations;
    SmallVector<Attribute> parts, received;
    for (int64_t i = firstSource; i <= lastSource && i + distance < P; ++i) {
      sources.push_back(i);
      destinations.push_back(i + distance);
      parts.push_back(builder.getDenseI64ArrayAttr({0}));
      received.push_back(builder.getDenseI64ArrayAttr({receivedAs}));
    }
    appendTransferStep(builder, spec.getLoc(), phase, kind, sources,
                       destinations, parts,
                       receivedAs == 0 ? ArrayRef<Attribute>() : received);
  };
  if (spec.getSchedule() == ScheduleKind::linear) {
    for (int64_t k = 0; k + 1 < P; ++k)
      emitStep("scan", StepKind::fold, 1, k, k, 0);
  } else {
    for (int64_t d = 1; d < P; d *= 2)
      emitStep("scan", StepKind::fold, d, 0, P - 1, 0);
  }
  if (exclusive && P > 1)
    emitStep("shift", StepKind::copy, 1, 0, P - 1, 1);
  return program;
}

namespace {
struct ExpandScansPass : public coll::impl::ExpandScansBase<ExpandScansPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(expandAllCollectives(
            getOperation(), ranks, "ranks=N", /*withTransfers=*/true,
            [](CollectiveOp spec) { return isScan(spec.getKind()); })))
      signalPassFailure();
  }
};
} // namespace
