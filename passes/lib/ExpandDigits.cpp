//===- ExpandDigits.cpp - digit routings to coll.step ---------------------===//
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/PlanProgram.h"

#include "llvm/Support/ErrorHandling.h"

namespace coll {
#define GEN_PASS_DEF_EXPANDDIGITS
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

Digits coll::digitsOf(CollectiveOp spec) {
  switch (spec.getSchedule()) {
  case ScheduleKind::direct:
    return Digits{DigitSystem::direct, 2};
  case ScheduleKind::radix:
    return Digits{DigitSystem::radix, static_cast<int>(*spec.getRadix())};
  case ScheduleKind::balanced_ternary:
    return Digits{DigitSystem::balancedTernary, 3};
  default:
    break;
  }
  llvm_unreachable("digitsOf needs a digit routing");
}

/// The program is every rank's plan: coll::trivancePlan for the Trivance
/// allreduce (Juerss, Addanki, Schmid 2026; seeds/002), coll::digitPlan for
/// the alltoall routings.
ProgramOp coll::expandDigitCollective(CollectiveOp spec, int64_t P,
                                      OpBuilder &builder) {
  int n = static_cast<int>(P);
  if (spec.getKind() == CollectiveKind::allreduce)
    return expandPlans(spec, P, builder,
                       [&](int rank) { return trivancePlan(n, rank); });
  Digits digits = digitsOf(spec);
  return expandPlans(spec, P, builder,
                     [&](int rank) { return digitPlan(digits, n, rank); });
}

namespace {
struct ExpandDigitsPass
    : public coll::impl::ExpandDigitsBase<ExpandDigitsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(expandAllCollectives(
            getOperation(), ranks, "ranks=N", /*withTransfers=*/true,
            [](CollectiveOp spec) { return spec.isDigitRouting(); })))
      signalPassFailure();
  }
};
} // namespace
