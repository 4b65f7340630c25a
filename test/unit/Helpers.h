// Shared by the unit tests: .coll or MLIR text to step programs.
#ifndef COLLC_TEST_UNIT_HELPERS_H
#define COLLC_TEST_UNIT_HELPERS_H

#include "coll/Dialect/CollOps.h"
#include "coll/Frontend/Parser.h"
#include "coll/Passes/Lowering.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace collc_test {

/// Parses `source` as a .coll file holding one collective into `module`.
inline coll::CollectiveOp parseSpec(mlir::MLIRContext &context,
                                    mlir::OwningOpRef<mlir::ModuleOp> &module,
                                    const std::string &source) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.coll"), llvm::SMLoc());
  module = coll::parseCollFile(sourceMgr, &context);
  return *module->getOps<coll::CollectiveOp>().begin();
}

/// Parses `source` as a .coll file holding one collective and expands it for
/// P ranks into `module`'s body.
inline coll::ProgramOp expand(mlir::MLIRContext &context,
                              mlir::OwningOpRef<mlir::ModuleOp> &module,
                              const std::string &source, int64_t P) {
  coll::CollectiveOp spec = parseSpec(context, module, source);
  mlir::OpBuilder builder(spec);
  coll::ProgramOp program = coll::expandCollective(spec, P, builder);
  spec.erase();
  return program;
}

inline std::string spec(const char *group, const char *schedule,
                        const char *ranks = "ranks P;") {
  return std::string("collective c : allreduce<any, sum> {") + ranks +
         " group " + group + "(P); schedule " + schedule + "; }";
}

} // namespace collc_test

#endif
