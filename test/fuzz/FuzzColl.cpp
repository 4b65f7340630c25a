// Fuzz target: the .coll frontend (frontend/). Any bytes, read as a .coll
// file: the parser either builds spec ops that pass their verifiers or
// reports an error through the diagnostic engine; it never crashes,
// hangs or reads out of bounds. Built with libFuzzer (tools/fuzz.sh) or
// with ReplayMain.cpp, which ctest runs over the seeds and regressions.
#include "FuzzInput.h"

#include "mlir/IR/Verifier.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // (The frontend builds ops; nothing has verified them yet.)
  mlir::OwningOpRef<mlir::ModuleOp> module = parseFuzzInput(data, size, "input.coll");
  if (module && mlir::failed(mlir::verify(*module)))
    __builtin_trap();  // the frontend built ops their verifiers refuse
  return 0;
}
