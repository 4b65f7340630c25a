//===- CollDialect.h - the coll dialect -------------------------*- C++ -*-===//
#ifndef COLL_DIALECT_COLLDIALECT_H
#define COLL_DIALECT_COLLDIALECT_H

#include "mlir/IR/Dialect.h"

#include "coll/Dialect/CollDialect.h.inc"

#endif
