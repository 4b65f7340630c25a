//===- Passes.h - coll passes -----------------------------------*- C++ -*-===//
#ifndef COLL_PASSES_PASSES_H
#define COLL_PASSES_PASSES_H

#include "coll/Dialect/CollOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace coll {

struct MachineModel;

#define GEN_PASS_DECL
#include "coll/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "coll/Passes/Passes.h.inc"

/// coll-select-schedules with a model a driver has loaded (and reported
/// the errors of) itself.
std::unique_ptr<mlir::Pass> createSelectSchedules(const MachineModel &model);

} // namespace coll

#endif
