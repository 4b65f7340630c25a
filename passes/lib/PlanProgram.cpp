//===- PlanProgram.cpp - coll.program from the runtime's plans ------------===//
#include "coll/Passes/PlanProgram.h"
#include "coll/Passes/Lowering.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ErrorHandling.h"

#include <optional>

using namespace mlir;
using namespace coll;

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

namespace {
/// One program step's transfers, gathered rank by rank.
struct StepTransfers {
  SmallVector<int64_t> sources, destinations;
  SmallVector<Attribute> parts, into;
  bool moved = false; // some transfer files its parts under other indices
  std::optional<Action> action;
};
} // namespace

ProgramOp coll::expandPlans(CollectiveOp spec, int64_t P, OpBuilder &builder,
                            llvm::function_ref<Plan(int rank)> planOf,
                            GroupKindAttr group) {
  std::vector<StepTransfers> steps;
  std::vector<std::string> phases;
  int parts = 1, scratchParts = 0;
  auto add = [&](StepTransfers &step, int src, int dst, Action action,
                 const std::vector<int> &sent,
                 const std::vector<int> &received) {
    SmallVector<int64_t> read(sent.begin(), sent.end()),
        written(received.begin(), received.end());
    step.sources.push_back(src);
    step.destinations.push_back(dst);
    step.moved |= read != written;
    step.parts.push_back(builder.getDenseI64ArrayAttr(read));
    step.into.push_back(builder.getDenseI64ArrayAttr(written));
    step.action = action;
  };
  for (int r = 0; r < P; ++r) {
    Plan plan = planOf(r);
    if (r == 0) {
      steps.resize(plan.numSteps);
      phases.resize(plan.numSteps);
      parts = plan.parts;
      scratchParts = plan.scratchParts;
    }
    if (static_cast<size_t>(plan.numSteps) != steps.size() ||
        plan.parts != parts || plan.scratchParts != scratchParts)
      llvm::report_fatal_error("coll::expandPlans: rank " + Twine(r) +
                               "'s plan has another shape than rank 0's");
    for (const PlanStep &step : plan.steps) {
      if (step.step < 0 || step.step >= plan.numSteps)
        llvm::report_fatal_error("coll::expandPlans: rank " + Twine(r) +
                                 "'s plan has step " + Twine(step.step) +
                                 " of " + Twine(plan.numSteps));
      StepTransfers &transfers = steps[step.step];
      if (phases[step.step].empty()) // the same on every rank that has it
        phases[step.step] = phaseOf(plan, step);
      for (const PlanMessage &m : step.sends)
        add(transfers, r, m.peer, step.action, m.parts, m.peerParts);
      for (const PlanMessage &m : step.receives)
        if (m.peer == r) // a local copy: read peerParts, write parts
          add(transfers, r, r, step.action, m.peerParts, m.parts);
    }
  }
  ProgramOp program =
      createProgram(spec, P, parts + scratchParts, builder, {}, group, {},
                    scratchParts);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&program.getBody().front());
  for (size_t s = 0; s < steps.size(); ++s) {
    StepTransfers &step = steps[s];
    if (step.sources.empty())
      continue;
    StepKind kind = *step.action == Action::copy      ? StepKind::copy
                    : *step.action == Action::combine ? StepKind::combine
                                                      : StepKind::fold;
    appendTransferStep(builder, spec.getLoc(), phases[s], kind, step.sources,
                       step.destinations, step.parts,
                       step.moved ? ArrayRef<Attribute>(step.into)
                                  : ArrayRef<Attribute>());
  }
  return program;
}
