//===- ExpandDigits.cpp - digit routings to coll.step ---------------------===//
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"

#include "mlir/IR/Builders.h"
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

ProgramOp coll::expandDigitCollective(CollectiveOp spec, int64_t P,
                                      OpBuilder &builder) {
  ProgramOp program = createProgram(spec, P, P, builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (const DigitStep &step : digitSteps(digitsOf(spec), static_cast<int>(P))) {
    SmallVector<int64_t> sources, destinations;
    SmallVector<Attribute> parts;
    SmallVector<int64_t> blocks(step.blocks.begin(), step.blocks.end());
    for (int64_t i = 0; i < P; ++i) {
      sources.push_back(i);
      destinations.push_back((i + step.offset) % P);
      parts.push_back(builder.getDenseI64ArrayAttr(blocks));
    }
    appendTransferStep(builder, spec.getLoc(),
                       "phase " + std::to_string(step.phase), StepKind::copy,
                       sources, destinations, parts);
  }
  return program;
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
