//===- coll-translate.cpp - coll modules to other languages ---------------===//
//
// The translations out of the coll dialect, as mlir-translate runs them:
// `coll-translate --coll-to-cpp` prints what `collc compile` writes for a
// module that has been through `coll-opt --coll-compile`.
//
//===----------------------------------------------------------------------===//
#include "coll/Passes/Lowering.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  coll::registerToCppTranslation();
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "coll translations"))
             ? 1
             : 0;
}
