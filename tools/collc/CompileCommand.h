//===- CompileCommand.h - the pipeline before a header is written -*- C++ -*-===//
#ifndef COLLC_COMPILECOMMAND_H
#define COLLC_COMPILECOMMAND_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace coll {
struct MachineModel;
}

namespace collc {

/// Runs the compile pipeline (coll/Passes/Pipeline.h) on `module`: the
/// selection with `model` (may be null), then the proofs of every
/// collective for each rank count it will be compiled for, with the proof
/// cache in `proofCache` if not empty. kSuccess, or the exit code of the
/// first failure (ExitCode.h: kInputError for a selection error or an
/// unusable cache directory, kViolated, kNotProven), its error printed.
int runCompilePipeline(mlir::ModuleOp module, const coll::MachineModel *model,
                       llvm::StringRef proofCache);

} // namespace collc

#endif
