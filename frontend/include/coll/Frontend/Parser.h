//===- Parser.h - .coll text to coll spec ops -------------------*- C++ -*-===//
//
// The frontend reads a `.coll` file (grammar: docs/dsl.md) and builds one
// coll.collective op per declaration, each located at the user's text so
// that later diagnostics point there too.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_FRONTEND_PARSER_H
#define COLL_FRONTEND_PARSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
}

namespace coll {

/// Parses the main buffer of `sourceMgr` as a .coll file. Errors are
/// reported through the context's diagnostic engine; returns null on error.
mlir::OwningOpRef<mlir::ModuleOp> parseCollFile(llvm::SourceMgr &sourceMgr,
                                                mlir::MLIRContext *context);

/// Parses the main buffer of `sourceMgr`, MLIR text if its name ends in
/// `.mlir`, else a .coll file, once its nesting is within kMaxNesting
/// (Nesting.h). Returns null on error (reported as parseCollFile does).
mlir::OwningOpRef<mlir::ModuleOp> parseInputFile(llvm::SourceMgr &sourceMgr,
                                                 mlir::MLIRContext *context);

} // namespace coll

#endif
