//===- ExpandTrees.cpp - tree schedules to coll.step ----------------------===//
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/PlanProgram.h"
#include "coll/Passes/TreeSchedule.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ErrorHandling.h"


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
  default: // a group or digit schedule
    break;
  }
  llvm_unreachable("treeOf needs a tree schedule");
}

/// The program is every rank's coll::treePlan (the plan the runtime
/// executes).
ProgramOp coll::expandTreeCollective(CollectiveOp spec, int64_t P,
                                     OpBuilder &builder) {
  int root = spec.getRoot() ? static_cast<int>(*spec.getRoot()) : 0;
  return expandPlans(spec, P, builder, [&](int rank) {
    return treePlan(runtimeKind(spec.getKind()), treeOf(spec),
                    static_cast<int>(P), root, rank);
  });
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
