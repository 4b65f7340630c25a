//===- AnnotateCost.cpp - the alpha-beta-gamma cost of every step ---------===//
#include "coll/Passes/CostModel.h"
#include "coll/Passes/Passes.h"

#include "mlir/IR/Builders.h"

namespace coll {
#define GEN_PASS_DEF_ANNOTATECOST
#include "coll/Passes/Passes.h.inc"
} // namespace coll

using namespace mlir;
using namespace coll;

namespace {
struct AnnotateCostPass : public coll::impl::AnnotateCostBase<AnnotateCostPass> {
  using Base::Base;

  void runOnOperation() override {
    MachineModel model;
    model.alpha = alpha;
    model.beta = beta;
    model.gamma = gamma;
    Builder b(&getContext());
    for (ProgramOp program : getOperation().getOps<ProgramOp>()) {
      // Per step: one segment's share when the program is segmented; the
      // program's time is then that of the pipelined super-steps.
      std::vector<StepCost> costs = costOfSteps(program, model, bytes);
      double total = predictedTime(program, model, bytes);
      size_t i = 0;
      for (StepOp step : program.getBody().getOps<StepOp>()) {
        const StepCost &c = costs[i++];
        step->setAttr("cost",
                      b.getDictionaryAttr(
                          {b.getNamedAttr("bytes", b.getF64FloatAttr(c.bytes)),
                           b.getNamedAttr("hops", b.getI64IntegerAttr(c.hops)),
                           b.getNamedAttr("merged_bytes",
                                          b.getF64FloatAttr(c.mergedBytes)),
                           b.getNamedAttr("time_us", b.getF64FloatAttr(c.time))}));
      }
      program->setAttr("cost_us", b.getF64FloatAttr(total));
    }
  }
};
} // namespace
