//===- ExpandGroupSchedules.cpp - group schedules to coll.step ------------===//
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/DigitSchedule.h"
#include "coll/Passes/TreeSchedule.h"

#include "mlir/IR/Builders.h"


namespace coll {
#define GEN_PASS_DEF_EXPANDGROUPSCHEDULES
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

ProgramOp coll::createProgram(CollectiveOp spec, int64_t P, int64_t parts,
                              OpBuilder &builder, DenseI64ArrayAttr chunkOfPart,
                              GroupKindAttr group) {
  auto program = builder.create<ProgramOp>(
      spec.getLoc(), spec.getSymNameAttr(), spec.getKindAttr(),
      spec.getOpAttr(), builder.getI64IntegerAttr(P),
      builder.getI64IntegerAttr(parts), chunkOfPart, group,
      spec.getNoncommutativeAttr(), spec.getRootAttr());
  program.getBody().push_back(new Block());
  return program;
}

StepOp coll::appendTransferStep(OpBuilder &builder, Location loc,
                                StringRef phase, StepKind kind,
                                ArrayRef<int64_t> sources,
                                ArrayRef<int64_t> destinations,
                                ArrayRef<Attribute> parts,
                                ArrayRef<Attribute> received) {
  return builder.create<StepOp>(
      loc, builder.getStringAttr(phase),
      StepKindAttr::get(builder.getContext(), kind),
      builder.getDenseI64ArrayAttr(sources),
      builder.getDenseI64ArrayAttr(destinations), builder.getArrayAttr(parts),
      received.empty() ? ArrayAttr() : builder.getArrayAttr(received),
      /*from=*/nullptr, /*to=*/nullptr, /*vectors=*/nullptr,
      /*vector_sources=*/nullptr, /*vector_destinations=*/nullptr);
}

/// butterfly(r = max) on xor(P): every step exchanges whole vectors with
/// rank xor 2^i and combines (recursive doubling, Thakur et al. 2005; the
/// latency-optimal corner of seeds/003), log2 P steps, one part.
static ProgramOp expandRecursiveDoubling(CollectiveOp spec, int64_t P,
                                         OpBuilder &builder) {
  ProgramOp program =
      createProgram(spec, P, 1, builder, {}, spec.getGroupAttr());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (int64_t mask = 1; mask < P; mask *= 2) {
    SmallVector<int64_t> sources, destinations;
    SmallVector<Attribute> parts;
    for (int64_t x = 0; x < P; ++x) {
      sources.push_back(x);
      destinations.push_back(x ^ mask);
      parts.push_back(builder.getDenseI64ArrayAttr({0}));
    }
    appendTransferStep(builder, spec.getLoc(), "doubling", StepKind::combine,
                       sources, destinations, parts);
  }
  return program;
}

/// butterfly(r) with r > 0, or r = max on cyclic(P): the shifted
/// reductions of coll/butterfly.hpp (design.md 3.1), the plan the
/// generated code runs, as group-level moves of vector slots.
static ProgramOp expandShiftedButterfly(CollectiveOp spec, int64_t P,
                                        OpBuilder &builder) {
  ButterflyPlan plan = shiftedButterflyPlan(spec, P);
  SmallVector<int64_t> chunkOfPart;
  bool identityLayout = true;
  GroupAlgebra group(*spec.getGroup(), P);
  for (int64_t c = 0; c < plan.copies; ++c)
    for (int64_t b = 0; b < P; ++b) {
      chunkOfPart.push_back(c * P + group.chunkOfPart(b));
      identityLayout &= chunkOfPart.back() == c * P + b;
    }
  ProgramOp program = createProgram(
      spec, P, plan.copies * P, builder,
      identityLayout ? DenseI64ArrayAttr()
                     : builder.getDenseI64ArrayAttr(chunkOfPart),
      spec.getGroupAttr());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (const ButterflyStep &step : plan.steps) {
    SmallVector<int64_t> sources, destinations;
    for (auto [index, destination] : step.received) {
      sources.push_back(step.sent[static_cast<size_t>(index)]);
      destinations.push_back(destination);
    }
    StepKind kind = step.kind == ButterflyStep::Kind::fold ? StepKind::fold
                                                           : StepKind::copy;
    const char *phase = step.kind == ButterflyStep::Kind::local  ? "local"
                        : step.kind == ButterflyStep::Kind::fold ? "reduce-scatter"
                                                                 : "all-gather";
    builder.create<StepOp>(
        spec.getLoc(), builder.getStringAttr(phase),
        StepKindAttr::get(builder.getContext(), kind),
        builder.getDenseI64ArrayAttr({}), builder.getDenseI64ArrayAttr({}),
        builder.getArrayAttr({}), /*received_parts=*/nullptr,
        /*from=*/nullptr, /*to=*/nullptr, /*vectors=*/nullptr,
        builder.getDenseI64ArrayAttr(sources),
        builder.getDenseI64ArrayAttr(destinations));
  }
  return program;
}

ButterflyPlan coll::shiftedButterflyPlan(CollectiveOp spec, int64_t P) {
  int64_t r = static_cast<int64_t>(spec.getButterflyR());
  // r beyond ceil(log2 P) is r = max; clamp before narrowing.
  return butterflyPlan(static_cast<int>(P),
                       r == kButterflyMax || r > 64 ? kLatencyOptimal
                                                    : static_cast<int>(r),
                       spec.getGroup() == GroupKind::xor_ ? GroupShape::xor_
                                                          : GroupShape::cyclic);
}

ProgramOp coll::expandCollective(CollectiveOp spec, int64_t P,
                                 OpBuilder &builder, bool withTransfers) {
  if (spec.isTree())
    return expandTreeCollective(spec, P, builder);
  if (spec.isDigitRouting())
    return expandDigitCollective(spec, P, builder);
  if (isScan(spec.getKind()))
    return expandScanCollective(spec, P, builder);
  if (spec.getButterflyR() == kButterflyMax &&
      spec.getGroup() == GroupKind::xor_)
    return expandRecursiveDoubling(spec, P, builder);
  if (spec.getButterflyR() != 0)
    return expandShiftedButterfly(spec, P, builder);
  MLIRContext *ctx = builder.getContext();
  GroupAlgebra group(*spec.getGroup(), P);
  SmallVector<int64_t> chunkOfPart;
  bool identityLayout = true;
  for (int64_t b = 0; b < P; ++b) {
    chunkOfPart.push_back(group.chunkOfPart(b));
    identityLayout &= chunkOfPart.back() == b;
  }
  ProgramOp program = createProgram(
      spec, P, P, builder,
      identityLayout ? DenseI64ArrayAttr()
                     : builder.getDenseI64ArrayAttr(chunkOfPart),
      spec.getGroupAttr());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());

  for (const GroupMove &move :
       expandGroupSchedule(spec.getSchedule(), P, spec.getKind())) {
    SmallVector<int64_t> sources, destinations;
    SmallVector<Attribute> parts;
    if (withTransfers)
      for (const Transfer &t :
           transfersOfMove(group, move.from, move.to, move.vectors)) {
        sources.push_back(t.src);
        destinations.push_back(t.dst);
        parts.push_back(builder.getDenseI64ArrayAttr(t.sent));
      }
    builder.create<StepOp>(
        spec.getLoc(), builder.getStringAttr(move.phase),
        StepKindAttr::get(ctx, move.kind),
        builder.getDenseI64ArrayAttr(sources),
        builder.getDenseI64ArrayAttr(destinations), builder.getArrayAttr(parts),
        /*received_parts=*/nullptr,
        builder.getI64IntegerAttr((move.from % P + P) % P),
        builder.getI64IntegerAttr((move.to % P + P) % P),
        builder.getI64IntegerAttr(move.vectors),
        /*vector_sources=*/nullptr, /*vector_destinations=*/nullptr);
  }
  return program;
}

LogicalResult coll::expandAllCollectives(
    ModuleOp module, int64_t ranks, StringRef ranksHint, bool withTransfers,
    const std::function<bool(CollectiveOp)> &select) {
  SmallVector<CollectiveOp> specs(module.getOps<CollectiveOp>());
  for (CollectiveOp spec : specs) {
    if (select && !select(spec))
      continue;
    // A fixed rank count is part of the spec; `ranks` fills in a symbolic one.
    int64_t P = ranks;
    if (std::optional<uint64_t> fixed = spec.getNumRanks())
      P = static_cast<int64_t>(*fixed);
    else if (P == 0)
      return spec.emitError("collective '")
             << spec.getSymName()
             << "' has a symbolic rank count; give one with " << ranksHint;
    if (!spec.acceptsRanks(P))
      return spec.emitError("collective '")
             << spec.getSymName() << "' does not admit P = " << P
             << " (requires " << spec.describeRanks() << ")";
    OpBuilder builder(spec);
    expandCollective(spec, P, builder, withTransfers);
    spec.erase();
  }
  return success();
}

namespace {
struct ExpandGroupSchedulesPass
    : public coll::impl::ExpandGroupSchedulesBase<ExpandGroupSchedulesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(expandAllCollectives(
            getOperation(), ranks, "ranks=N", !compact,
            [](CollectiveOp spec) {
              return !spec.isTree() && !spec.isDigitRouting() &&
                     !isScan(spec.getKind());
            })))
      signalPassFailure();
  }
};
} // namespace
