//===- CompileCommand.cpp - the pipeline before a header is written -------===//
#include "CompileCommand.h"
#include "ExitCode.h"

#include "coll/Passes/Pipeline.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int collc::runCompilePipeline(mlir::ModuleOp module,
                              const coll::MachineModel *model,
                              llvm::StringRef proofCache) {
  coll::ProofOutcome outcome = coll::ProofOutcome::proven;
  // An unusable cache directory is an error of the command line, printed
  // as collc's own (the pass says so before it emits the error); a spec's
  // goes on to the file's handler.
  mlir::ScopedDiagnosticHandler commandLineError(
      module.getContext(), [&](mlir::Diagnostic &diag) {
        if (outcome != coll::ProofOutcome::unusableCache)
          return mlir::failure();
        llvm::errs() << "collc: error: " << diag.str() << "\n";
        return mlir::success();
      });
  mlir::PassManager pm(module.getContext());
  coll::CompilePipelineOptions options;
  options.proofCache = proofCache.str();
  coll::buildCompilePipeline(pm, options, model, &outcome);
  if (succeeded(pm.run(module)))
    return collc::kSuccess;
  switch (outcome) {
  case coll::ProofOutcome::violated:
    return collc::kViolated;
  case coll::ProofOutcome::notProven:
    return collc::kNotProven;
  case coll::ProofOutcome::proven:
  case coll::ProofOutcome::unusableCache:
    break;
  }
  return collc::kInputError;
}
