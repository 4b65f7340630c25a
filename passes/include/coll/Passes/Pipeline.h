//===- Pipeline.h - the passes of `collc compile` ---------------*- C++ -*-===//
//
// `collc compile`, `collc policy` and `coll-opt --coll-compile` run one
// pipeline: coll-select-schedules (the cost model's choices, as ops), then
// coll-prove-rank-counts (every admitted P proven, or no header); the
// translation coll-to-cpp then prints the module (coll/Passes/Lowering.h).
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_PIPELINE_H
#define COLL_PASSES_PIPELINE_H

#include "coll/Passes/VerifyPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace coll {

struct MachineModel;

struct CompilePipelineOptions
    : public mlir::PassPipelineOptions<CompilePipelineOptions> {
  Option<std::string> model{
      *this, "model",
      llvm::cl::desc("A model file, or alpha=...,beta=... (choose, "
                     "reconfigure auto)"),
      llvm::cl::init("")};
  Option<std::string> proofCache{
      *this, "proof-cache",
      llvm::cl::desc("A directory of proofs kept across runs"),
      llvm::cl::init("")};
};

/// Adds the compile pipeline to `pm`. `model`, when given, is the model a
/// driver has loaded itself (instead of options.model); `outcome`, when
/// given, says how the proofs ended (coll-prove-rank-counts).
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompilePipelineOptions &options,
                          const MachineModel *model = nullptr,
                          ProofOutcome *outcome = nullptr);

/// Registers the pipeline as `coll-compile` for coll-opt.
void registerCompilePipeline();

} // namespace coll

#endif
