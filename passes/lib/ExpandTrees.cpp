//===- ExpandTrees.cpp - tree schedules to coll.step ----------------------===//
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/TreeSchedule.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ErrorHandling.h"

#include <map>

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

ProgramOp coll::expandTreeCollective(CollectiveOp spec, int64_t P,
                                     OpBuilder &builder) {
  CollectiveKind kind = spec.getKind();
  int64_t root = spec.getRoot() ? static_cast<int64_t>(*spec.getRoot()) : 0;
  // One part per rank for the kinds that move blocks; one for the others.
  bool blocks = kind == CollectiveKind::gather ||
                kind == CollectiveKind::scatter ||
                kind == CollectiveKind::allgather ||
                kind == CollectiveKind::reduce_scatter;
  ProgramOp program = createProgram(spec, P, blocks ? P : 1, builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());

  std::map<int, std::vector<TreeEdge>> edgesByStep;
  for (const TreeEdge &e : treeEdges(treeOf(spec), static_cast<int>(P)))
    edgesByStep[e.step].push_back(e);
  auto absolute = [&](int64_t rel) { return (rel + root) % P; };

  // One coll.step per tree step; `upward` runs the edges child -> parent in
  // reduction order, otherwise parent -> child in reverse. A message
  // carries the child's subtree's blocks, or every part (`whole`).
  auto emitPass = [&](bool upward, StepKind stepKind, StringRef phase,
                      bool whole = false) {
    auto emitStep = [&](const std::vector<TreeEdge> &edges) {
      SmallVector<int64_t> sources, destinations;
      SmallVector<Attribute> parts;
      for (const TreeEdge &e : edges) {
        int64_t child = absolute(e.child), parent = absolute(e.parent);
        sources.push_back(upward ? child : parent);
        destinations.push_back(upward ? parent : child);
        SmallVector<int64_t> sent;
        if (!blocks)
          sent.push_back(0);
        else if (whole)
          for (int64_t b = 0; b < P; ++b)
            sent.push_back(b);
        else
          for (int64_t i = 0; i < e.span; ++i)
            sent.push_back(absolute(e.child + i));
        parts.push_back(builder.getDenseI64ArrayAttr(sent));
      }
      appendTransferStep(builder, spec.getLoc(), phase, stepKind, sources,
                         destinations, parts);
    };
    if (upward)
      for (auto &[step, edges] : edgesByStep)
        emitStep(edges);
    else
      for (auto it = edgesByStep.rbegin(); it != edgesByStep.rend(); ++it)
        emitStep(it->second);
  };

  switch (kind) {
  case CollectiveKind::reduce:
    emitPass(/*upward=*/true, StepKind::combine, "reduce");
    break;
  case CollectiveKind::allreduce:
    emitPass(/*upward=*/true, StepKind::combine, "reduce");
    emitPass(/*upward=*/false, StepKind::copy, "broadcast");
    break;
  case CollectiveKind::barrier: // an allreduce of nothing: all arrive, then go
    emitPass(/*upward=*/true, StepKind::combine, "arrive");
    emitPass(/*upward=*/false, StepKind::copy, "release");
    break;
  case CollectiveKind::broadcast:
    emitPass(/*upward=*/false, StepKind::copy, "broadcast");
    break;
  case CollectiveKind::gather:
    emitPass(/*upward=*/true, StepKind::copy, "gather");
    break;
  case CollectiveKind::scatter:
    emitPass(/*upward=*/false, StepKind::copy, "scatter");
    break;
  case CollectiveKind::allgather: // HPX: gather up, broadcast every block down
    emitPass(/*upward=*/true, StepKind::copy, "gather");
    emitPass(/*upward=*/false, StepKind::copy, "broadcast", /*whole=*/true);
    break;
  case CollectiveKind::reduce_scatter: // reduce every block up, scatter down
    emitPass(/*upward=*/true, StepKind::combine, "reduce", /*whole=*/true);
    emitPass(/*upward=*/false, StepKind::copy, "scatter");
    break;
  case CollectiveKind::alltoall:
  case CollectiveKind::inclusive_scan:
  case CollectiveKind::exclusive_scan:
    llvm_unreachable("the spec verifier keeps trees from alltoall and scans");
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
