// Fuzz target: the step-program reader and the verifier (passes/lib/
// verify). Any bytes, read as MLIR text: the reader either refuses them
// with an error or gives ops that pass their verifiers, and the Z3
// verifier proves or refutes every small coll.program (at most 8 ranks,
// 16 parts and 256 transfers, so one input stays within milliseconds)
// without crashing. Built as FuzzColl.cpp is.
#include "coll/Dialect/CollOps.h"
#include "coll/Passes/Verify.h"

#include "FuzzInput.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // (parseInputFile verifies what it reads, as MLIR's parser does.)
  mlir::OwningOpRef<mlir::ModuleOp> module = parseFuzzInput(data, size, "input.mlir");
  if (!module)
    return 0;
  coll::VerifyOptions options;
  options.timeoutMs = 2000;
  for (coll::ProgramOp program : module->getOps<coll::ProgramOp>()) {
    size_t transfers = 0;
    program.walk([&](coll::StepOp step) { transfers += 1 + step.getSources().size(); });
    if (program.getNumRanks() > 8 || program.getNumParts() > 16 || transfers > 256)
      continue;
    (void)coll::verifyProgram(program, options);
  }
  return 0;
}
