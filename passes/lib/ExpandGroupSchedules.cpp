//===- ExpandGroupSchedules.cpp - group schedules to coll.step ------------===//
#include "coll/Dialect/Catalogue.h"
#include "coll/Passes/GroupSchedule.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/PlanProgram.h"

#include "mlir/IR/Builders.h"


namespace coll {
#define GEN_PASS_DEF_EXPANDGROUPSCHEDULES
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

ProgramOp coll::createProgram(CollectiveOp spec, int64_t P, int64_t parts,
                              OpBuilder &builder, DenseI64ArrayAttr chunkOfPart,
                              GroupKindAttr group,
                              DenseI64ArrayAttr groupElements,
                              int64_t scratchParts) {
  auto program = builder.create<ProgramOp>(
      spec.getLoc(), spec.getSymNameAttr(), spec.getKindAttr(),
      spec.getOpAttr(), builder.getI64IntegerAttr(P),
      builder.getI64IntegerAttr(parts), chunkOfPart, group, groupElements,
      scratchParts ? builder.getI64IntegerAttr(scratchParts) : IntegerAttr(),
      spec.getNoncommutativeAttr(),
      // `root = any`: root 0 stands for every root (the verifier expands
      // each root on its own, coll::rootInstance).
      spec.getAnyRoot() ? builder.getI64IntegerAttr(0) : spec.getRootAttr(),
      // Every segment runs the same steps: one program, priced pipelined.
      spec.getSegments().value_or(1) > 1 ? spec.getSegmentsAttr()
                                         : IntegerAttr());
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

/// butterfly(r = max) on xor(P): every rank's coll::doublingPlan
/// (recursive doubling, one part), the plan the header runs.
ProgramOp coll::expandRecursiveDoubling(CollectiveOp spec, int64_t P,
                                        OpBuilder &builder) {
  return expandPlans(
      spec, P, builder,
      [&](int rank) { return doublingPlan(static_cast<int>(P), rank); },
      spec.getGroupAttr());
}

static StepKind stepKindOf(const GroupMove &move) {
  return move.action == Action::combine ? StepKind::combine : StepKind::copy;
}

GroupEnumeration coll::enumerationOfSpec(CollectiveOp spec) {
  std::string why;
  FailureOr<GroupEnumeration> group = enumerateGroup(spec, why);
  if (failed(group)) // the op verifier and the parser rule this out
    llvm::report_fatal_error(llvm::Twine("collective '") +
                             spec.getSymName() + "': " + why);
  return *group;
}

GroupAlgebra coll::groupOfSpec(CollectiveOp spec, int64_t P) {
  if (spec.getGroup() != GroupKind::generated)
    return GroupAlgebra(*spec.getGroup(), P);
  return GroupAlgebra(enumerationOfSpec(spec).table(P));
}

/// A program on `group` with `copies` copies of the P parts; parts are
/// stored in chunk group.chunkOfPart(b) of each copy.
static ProgramOp createGroupProgram(CollectiveOp spec,
                                    const GroupAlgebra &group, int64_t copies,
                                    OpBuilder &builder) {
  int64_t P = group.order();
  SmallVector<int64_t> chunkOfPart, elements;
  bool identityLayout = true;
  for (int64_t c = 0; c < copies; ++c)
    for (int64_t b = 0; b < P; ++b) {
      chunkOfPart.push_back(c * P + group.chunkOfPart(b));
      identityLayout &= chunkOfPart.back() == c * P + b;
    }
  if (group.groupKind() == GroupKind::generated)
    for (int64_t k = 0; k < P; ++k)
      for (int64_t x = 0; x < P; ++x)
        elements.push_back(group.act(k, x));
  return createProgram(
      spec, P, copies * P, builder,
      identityLayout ? DenseI64ArrayAttr()
                     : builder.getDenseI64ArrayAttr(chunkOfPart),
      spec.getGroupAttr(),
      elements.empty() ? DenseI64ArrayAttr()
                       : builder.getDenseI64ArrayAttr(elements),
      (copies - 1) * P);
}

static void appendVectorStep(OpBuilder &builder, Location loc, StringRef phase,
                             StepKind kind, ArrayRef<int64_t> sources,
                             ArrayRef<int64_t> destinations) {
  builder.create<StepOp>(
      loc, builder.getStringAttr(phase),
      StepKindAttr::get(builder.getContext(), kind),
      builder.getDenseI64ArrayAttr({}), builder.getDenseI64ArrayAttr({}),
      builder.getArrayAttr({}), /*received_parts=*/nullptr,
      /*from=*/nullptr, /*to=*/nullptr, /*vectors=*/nullptr,
      builder.getDenseI64ArrayAttr(sources),
      builder.getDenseI64ArrayAttr(destinations));
}

/// The shifted butterfly (butterfly(r) with r > 0, or r = max off xor(P),
/// on any group): the plan of coll/butterfly.hpp (design.md 3.1), which
/// the generated code runs, as group-level moves of vector slots.
ProgramOp coll::expandShiftedButterfly(CollectiveOp spec, int64_t P,
                                       OpBuilder &builder, bool) {
  GroupAlgebra group = groupOfSpec(spec, P);
  ButterflyPlan plan = shiftedButterflyPlan(spec, group);
  ProgramOp program = createGroupProgram(spec, group, plan.copies, builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (const ButterflyStep &step : plan.steps) {
    SmallVector<int64_t> sources, destinations;
    for (const VectorMove &move : butterflyMoves(step)) {
      sources.push_back(move.source);
      destinations.push_back(move.destination);
    }
    StepKind kind = step.kind == ButterflyStep::Kind::fold ? StepKind::fold
                                                           : StepKind::copy;
    const char *phase = step.kind == ButterflyStep::Kind::local  ? "local"
                        : step.kind == ButterflyStep::Kind::fold ? "reduce-scatter"
                                                                 : "all-gather";
    appendVectorStep(builder, spec.getLoc(), phase, kind, sources,
                     destinations);
  }
  return program;
}

int coll::butterflyRuntimeR(CollectiveOp spec) {
  int64_t r = static_cast<int64_t>(spec.getButterflyR());
  // r beyond ceil(log2 P) is r = max; clamp before narrowing.
  return r == kButterflyMax || r > kLatencyOptimal ? kLatencyOptimal
                                                   : static_cast<int>(r);
}

ButterflyPlan coll::shiftedButterflyPlan(CollectiveOp spec,
                                         const GroupAlgebra &group) {
  // The runtime's own call (coll::runButterfly), on the same group.
  return std::visit(
      [&](const auto &g) { return butterflyPlan(g, butterflyRuntimeR(spec)); },
      group.runtime());
}

ProgramOp coll::expandGroupMoves(CollectiveOp spec, int64_t P,
                                 OpBuilder &builder, bool withTransfers) {
  GroupAlgebra group = groupOfSpec(spec, P);
  // The ring and the halving butterfly: the group's moves.
  ProgramOp program = createGroupProgram(spec, group, 1, builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());

  bool generated = group.groupKind() == GroupKind::generated;
  for (const GroupMove &move :
       expandGroupSchedule(spec.getSchedule(), P, spec.getKind())) {
    int64_t from = (move.from % P + P) % P, to = (move.to % P + P) % P;
    if (generated) {
      // A table group's moves are lists of vectors, each where the move
      // really takes it (coll::rangeMoves, what coll::groupPlan runs): the
      // proof then checks that the enumeration puts every vector where the
      // schedule needs it.
      SmallVector<int64_t> sources, destinations;
      for (const VectorMove &m :
           group.rangeMoves(move.from, move.to, move.vectors)) {
        sources.push_back(m.source);
        destinations.push_back(m.destination);
      }
      appendVectorStep(builder, spec.getLoc(), move.phase, stepKindOf(move),
                       sources, destinations);
      continue;
    }
    TransferAttrs transfers;
    if (withTransfers)
      transfers = transferAttrs(
          builder, transfersOfMove(group, move.from, move.to, move.vectors));
    builder.create<StepOp>(
        spec.getLoc(), builder.getStringAttr(move.phase),
        StepKindAttr::get(builder.getContext(), stepKindOf(move)),
        builder.getDenseI64ArrayAttr(transfers.sources),
        builder.getDenseI64ArrayAttr(transfers.destinations),
        builder.getArrayAttr(transfers.sent),
        transfers.moved ? builder.getArrayAttr(transfers.received) : ArrayAttr(),
        builder.getI64IntegerAttr(from),
        builder.getI64IntegerAttr(to), builder.getI64IntegerAttr(move.vectors),
        /*vector_sources=*/nullptr, /*vector_destinations=*/nullptr);
  }
  return program;
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
