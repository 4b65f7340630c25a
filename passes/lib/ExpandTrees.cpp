//===- ExpandTrees.cpp - tree schedules to coll.step ----------------------===//
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/TreeSchedule.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ErrorHandling.h"

#include <map>
#include <optional>

namespace coll {
#define GEN_PASS_DEF_EXPANDTREES
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

Tree coll::treeOf(CollectiveOp spec) {
  Tree tree;
  switch (spec.getSchedule()) {
  case ScheduleKind::flat:
    tree.shape = TreeShape::flat;
    return tree;
  case ScheduleKind::binomial:
    tree.shape = TreeShape::binomial;
    return tree;
  case ScheduleKind::chain:
    tree.shape = TreeShape::chain;
    return tree;
  case ScheduleKind::hierarchical:
    tree.shape = TreeShape::hierarchical;
    tree.arity = static_cast<int>(*spec.getArity());
    tree.flatBelow = static_cast<int>(*spec.getFlatBelow());
    return tree;
  case ScheduleKind::linear:
  case ScheduleKind::butterfly:
    break;
  }
  llvm_unreachable("treeOf needs a tree schedule");
}

Kind coll::runtimeKind(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::allreduce: return Kind::allreduce;
  case CollectiveKind::reduce_scatter: return Kind::reduce_scatter;
  case CollectiveKind::allgather: return Kind::allgather;
  case CollectiveKind::alltoall: return Kind::alltoall;
  case CollectiveKind::broadcast: return Kind::broadcast;
  case CollectiveKind::reduce: return Kind::reduce;
  case CollectiveKind::gather: return Kind::gather;
  case CollectiveKind::scatter: return Kind::scatter;
  case CollectiveKind::inclusive_scan: return Kind::inclusive_scan;
  case CollectiveKind::exclusive_scan: return Kind::exclusive_scan;
  case CollectiveKind::barrier: return Kind::barrier;
  }
  llvm_unreachable("every collective kind has a runtime kind");
}

/// The program is every rank's coll::treePlan (the plan the runtime
/// executes), step by step: one coll.step per step some rank sends in,
/// each rank's sends its transfers.
ProgramOp coll::expandTreeCollective(CollectiveOp spec, int64_t P,
                                     OpBuilder &builder) {
  int root = spec.getRoot() ? static_cast<int>(*spec.getRoot()) : 0;
  std::vector<Plan> plans;
  for (int r = 0; r < P; ++r)
    plans.push_back(treePlan(runtimeKind(spec.getKind()), treeOf(spec),
                             static_cast<int>(P), root, r));
  ProgramOp program = createProgram(spec, P, plans.front().parts, builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (size_t s = 0; s < plans.front().steps.size(); ++s) {
    SmallVector<int64_t> sources, destinations;
    SmallVector<Attribute> parts, into;
    bool moved = false; // parts filed under other indices
    std::optional<Action> action;
    for (const Plan &plan : plans)
      for (const PlanMessage &m : plan.steps[s].sends) {
        sources.push_back(plan.rank);
        destinations.push_back(m.peer);
        SmallVector<int64_t> sent(m.parts.begin(), m.parts.end()),
            received(m.peerParts.begin(), m.peerParts.end());
        moved |= sent != received;
        parts.push_back(builder.getDenseI64ArrayAttr(sent));
        into.push_back(builder.getDenseI64ArrayAttr(received));
        action = plan.steps[s].action;
      }
    if (sources.empty())
      continue;
    StepKind kind = *action == Action::copy      ? StepKind::copy
                    : *action == Action::combine ? StepKind::combine
                                                 : StepKind::fold;
    appendTransferStep(builder, spec.getLoc(), plans.front().phases[s], kind,
                       sources, destinations, parts,
                       moved ? ArrayRef<Attribute>(into)
                             : ArrayRef<Attribute>());
  }
  return program;
}

namespace {
struct ExpandTreesPass : public coll::impl::ExpandTreesBase<ExpandTreesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(expandAllCollectives(
            getOperation(), ranks, "ranks=N", /*withTransfers=*/true,
            [](CollectiveOp spec) { return spec.isTree(); })))
      signalPassFailure();
  }
};
} // namespace
