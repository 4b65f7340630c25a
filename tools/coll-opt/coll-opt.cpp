//===- coll-opt.cpp - run coll passes on MLIR -----------------------------===//
#include "coll/Dialect/CollOps.h"
#include "coll/Passes/Passes.h"
#include "coll/Passes/VerifyPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<coll::CollDialect>();
  coll::registerCollPasses();
  coll::registerCollVerifyPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "coll pass driver\n", registry));
}
