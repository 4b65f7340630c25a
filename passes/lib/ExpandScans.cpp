//===- ExpandScans.cpp - scan schedules to coll.step ----------------------===//
//
// The program is every rank's coll::scanPlan (coll/scans.hpp: the chain or
// recursive doubling; an exclusive chain with a scratch carry, an exclusive
// doubling scan with a final shift), the plan the runtime executes.
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/PlanProgram.h"


namespace coll {
#define GEN_PASS_DEF_EXPANDSCANS
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

ScanSchedule coll::scanScheduleOf(CollectiveOp spec) {
  return spec.getSchedule() == ScheduleKind::linear ? ScanSchedule::linear
                                                    : ScanSchedule::doubling;
}

ProgramOp coll::expandScanCollective(CollectiveOp spec, int64_t P,
                                     OpBuilder &builder) {
  Kind kind = runtimeKind(spec.getKind());
  return expandPlans(spec, P, builder, [&](int rank) {
    return scanPlan(kind, scanScheduleOf(spec), static_cast<int>(P), rank);
  });
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
