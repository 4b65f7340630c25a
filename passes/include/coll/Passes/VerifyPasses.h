//===- VerifyPasses.h - Z3 proofs of step programs --------------*- C++ -*-===//
#ifndef COLL_PASSES_VERIFYPASSES_H
#define COLL_PASSES_VERIFYPASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace coll {

#define GEN_PASS_DECL
#include "coll/Passes/VerifyPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "coll/Passes/VerifyPasses.h.inc"

} // namespace coll

#endif
