//===- coll-opt.cpp - run coll passes on MLIR -----------------------------===//
#include "coll/Dialect/CollOps.h"
#include "coll/Frontend/Nesting.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/Pipeline.h"
#include "coll/Passes/Verify.h"
#include "coll/Passes/VerifyPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  coll::keepHeapForProofs();
  mlir::DialectRegistry registry;
  registry.insert<coll::CollDialect>();
  coll::registerCollPasses();
  coll::registerCollVerifyPasses();
  coll::registerCompilePipeline();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "coll pass driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, input, output, registry));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(input, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  // MLIR's parser descends once per nesting level on the call stack: input
  // nested deeper than collc reads is refused before it is parsed.
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef()), llvm::SMLoc());
    mlir::MLIRContext context;
    mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    if (mlir::failed(coll::checkNesting(sourceMgr, &context)))
      return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(out->os(), std::move(file), registry, config)))
    return 1;
  out->keep();
  return 0;
}
