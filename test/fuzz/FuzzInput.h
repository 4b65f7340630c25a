// What the compiler's fuzz targets share: one MLIRContext for the
// process (with the coll dialect, diagnostics dropped: errors are the
// expected outcome of most inputs) and the bytes read as a file named
// `name`, as collc reads its input (coll::parseInputFile: MLIR text for
// a name ending in .mlir, else a .coll file).
#pragma once

#include "coll/Dialect/CollDialect.h"
#include "coll/Frontend/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

inline mlir::OwningOpRef<mlir::ModuleOp> parseFuzzInput(const uint8_t *data, size_t size,
                                                        const char *name) {
  static mlir::MLIRContext *context = [] {
    auto *c = new mlir::MLIRContext;
    c->getOrLoadDialect<coll::CollDialect>();
    c->printOpOnDiagnostic(false);
    c->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
    return c;
  }();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size), name),
      llvm::SMLoc());
  return coll::parseInputFile(sourceMgr, context);
}
