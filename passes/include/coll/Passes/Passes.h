//===- Passes.h - coll passes -----------------------------------*- C++ -*-===//
#ifndef COLL_PASSES_PASSES_H
#define COLL_PASSES_PASSES_H

#include "coll/Dialect/CollOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace coll {

#define GEN_PASS_DECL
#include "coll/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coll/Passes/Passes.h.inc"

} // namespace coll

#endif
