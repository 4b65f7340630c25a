//===- CollDialect.cpp - the coll dialect ---------------------------------===//
#include "coll/Dialect/CollDialect.h"
#include "coll/Dialect/CollOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace coll;

#include "coll/Dialect/CollDialect.cpp.inc"
#include "coll/Dialect/CollEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "coll/Dialect/CollAttrs.cpp.inc"

void CollDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "coll/Dialect/CollOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "coll/Dialect/CollAttrs.cpp.inc"
      >();
}
