//===- CompilePipeline.cpp - the passes of `collc compile` ----------------===//
#include "coll/Passes/Pipeline.h"
#include "coll/Passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace coll;

void coll::buildCompilePipeline(OpPassManager &pm,
                                const CompilePipelineOptions &options,
                                const MachineModel *model,
                                ProofOutcome *outcome) {
  // Selection first: its errors (a choice without a model) need no proof.
  if (model) {
    pm.addPass(createSelectSchedules(*model));
  } else {
    SelectSchedulesOptions select;
    select.modelSpec = options.model;
    pm.addPass(createSelectSchedules(select));
  }
  ProveRankCountsOptions prove;
  prove.proofCache = options.proofCache;
  pm.addPass(createProveRankCounts(prove, outcome));
}

void coll::registerCompilePipeline() {
  PassPipelineRegistration<CompilePipelineOptions>(
      "coll-compile",
      "What collc compile runs before it prints: select, then prove",
      [](OpPassManager &pm, const CompilePipelineOptions &options) {
        buildCompilePipeline(pm, options);
      });
}
