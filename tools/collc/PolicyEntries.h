//===- PolicyEntries.h - what a collc policy serves -------------*- C++ -*-===//
//
// The checks `collc policy` makes of its .coll files before any proof
// (each collective names the MPI call it serves and takes what that call
// is called with), and the table of calls (policy_calls.h) the policy's
// sources are compiled from. A library of its own so that the policy fuzz
// target (test/fuzz/FuzzPolicy.cpp) runs the same code.
//
//===----------------------------------------------------------------------===//
#ifndef COLLC_POLICYENTRIES_H
#define COLLC_POLICYENTRIES_H

#include "coll/Dialect/CollOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace collc {

/// A call the library serves, and the collective that serves it.
struct PolicyCall {
  const char *name; // the collective's name in a .coll file
  coll::CollectiveKind kind;
  const char *macro; // policy_calls.h's COLLC_POLICY_<macro>
  const char *mpi;
  const char *call; // its coll::mpi::Call, Policy field and entry point
};

/// The calls of a policy: per call, its collective or the candidates of
/// its choice.
struct PolicyEntry {
  const PolicyCall *call = nullptr;
  llvm::SmallVector<coll::CollectiveOp> specs;
  bool choice = false;
};

using PolicyEntries = llvm::MapVector<const PolicyCall *, PolicyEntry>;

/// "policy_allreduce, ..., policy_scatter": the names a policy's
/// collectives take.
std::string policyCallNames();

/// Checks that every collective of `module` serves a call as the library
/// calls it; groups them by call. Errors at the spec.
mlir::LogicalResult collectPolicyEntries(mlir::ModuleOp module, PolicyEntries &entries);

/// policy_calls.h: which calls the policy has schedules for, and how the
/// library explains each (runtime/mpi/PolicyTable.cpp); its digest covers
/// `header`, the policy's generated header.
std::string policyCallsHeader(llvm::ArrayRef<PolicyEntry> entries, llvm::StringRef sources,
                              llvm::StringRef header);

} // namespace collc

#endif
