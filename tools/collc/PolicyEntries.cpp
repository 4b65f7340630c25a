//===- PolicyEntries.cpp - what a collc policy serves ---------------------===//
#include "PolicyEntries.h"
#include "coll/Dialect/Catalogue.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

using namespace mlir;
using namespace coll;
using collc::PolicyCall;
using collc::PolicyEntry;
using collc::PolicyEntries;

namespace {

constexpr PolicyCall kPolicyCalls[] = {
    {"policy_allreduce", CollectiveKind::allreduce, "ALLREDUCE", "MPI_Allreduce", "allreduce"},
    {"policy_reduce_scatter", CollectiveKind::reduce_scatter, "REDUCE_SCATTER",
     "MPI_Reduce_scatter_block", "reduceScatterBlock"},
    {"policy_allgather", CollectiveKind::allgather, "ALLGATHER", "MPI_Allgather", "allgather"},
    {"policy_alltoall", CollectiveKind::alltoall, "ALLTOALL", "MPI_Alltoall", "alltoall"},
    {"policy_inclusive_scan", CollectiveKind::inclusive_scan, "INCLUSIVE_SCAN",
     "MPI_Scan", "scan"},
    {"policy_exclusive_scan", CollectiveKind::exclusive_scan, "EXCLUSIVE_SCAN",
     "MPI_Exscan", "exscan"},
    {"policy_barrier", CollectiveKind::barrier, "BARRIER", "MPI_Barrier", "barrier"},
    {"policy_broadcast", CollectiveKind::broadcast, "BROADCAST", "MPI_Bcast", "broadcast"},
    {"policy_reduce", CollectiveKind::reduce, "REDUCE", "MPI_Reduce", "reduce"},
    {"policy_gather", CollectiveKind::gather, "GATHER", "MPI_Gather", "gather"},
    {"policy_scatter", CollectiveKind::scatter, "SCATTER", "MPI_Scatter", "scatter"},
};

const PolicyCall *findCall(llvm::StringRef name) {
  for (const PolicyCall &call : kPolicyCalls)
    if (name == call.name)
      return &call;
  return nullptr;
}

} // namespace

std::string collc::policyCallNames() {
  std::string names;
  for (const PolicyCall &call : kPolicyCalls)
    names += (names.empty() ? "" : ", ") + std::string(call.name);
  return names;
}

namespace {

/// "an allreduce", "a broadcast".
std::string withArticle(llvm::StringRef kind) {
  return (llvm::StringRef("aeiou").contains(kind.front()) ? "an " : "a ") +
         kind.str();
}

} // namespace

LogicalResult collc::collectPolicyEntries(ModuleOp module, PolicyEntries &entries) {
  for (CollectiveOp spec : module.getOps<CollectiveOp>()) {
    std::optional<llvm::StringRef> of = spec.getChoiceOf();
    llvm::StringRef name = of ? *of : spec.getSymName();
    const PolicyCall *call = findCall(name);
    if (!call)
      return spec.emitError()
             << (of ? "choice '" : "collective '") << name
             << "' is not a call of a policy: name it for the MPI call it "
                "serves, one of "
             << policyCallNames();
    PolicyEntry &entry = entries[call];
    // A choice's candidates come from one `choose` block, in one file (the
    // parser rejects a second block of the name in the same file).
    auto fileOf = [](Operation *op) -> llvm::StringRef {
      auto loc = dyn_cast<FileLineColLoc>(op->getLoc());
      return loc ? loc.getFilename().getValue() : llvm::StringRef();
    };
    if (!entry.specs.empty() &&
        (!of || !entry.choice || fileOf(spec) != fileOf(entry.specs.front()))) {
      InFlightDiagnostic diag = spec.emitError()
                                << "'" << name << "' (" << call->mpi
                                << ") is defined twice";
      diag.attachNote(entry.specs.front().getLoc()) << "first defined here";
      return diag;
    }
    entry.call = call;
    entry.choice = of.has_value();
    entry.specs.push_back(spec);
    const char *what = of ? "candidate '" : "'";
    llvm::StringRef self = spec.getSymName();
    if (spec.getKind() != call->kind)
      return spec.emitError()
             << what << self << "' serves " << call->mpi << ": it must be "
             << withArticle(stringifyCollectiveKind(call->kind)) << ", not "
             << withArticle(stringifyCollectiveKind(spec.getKind()));
    if (spec.getElementType())
      return spec.emitError() << what << self << "' serves every element type "
                              << call->mpi
                              << " is called with: its element type must be "
                                 "`any`";
    if (isRooted(call->kind) && !spec.getAnyRoot())
      return spec.emitError() << what << self << "' takes the root "
                              << call->mpi
                              << " is called with: write `root = any;`";
  }
  return success();
}

namespace {

/// FNV-1a over `text`: the policy's digest, which every rank must share.
uint64_t digestOf(llvm::StringRef text, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

} // namespace

std::string collc::policyCallsHeader(llvm::ArrayRef<PolicyEntry> entries,
                                     llvm::StringRef sources, llvm::StringRef header) {
  // COLLC_POLICY_<CALL> for each call present (Serve*.cpp define its entry
  // point), and the list PolicyTable.cpp expands: X(call, schedule,
  // explanation).
  std::string body, list;
  llvm::raw_string_ostream os(body), xs(list);
  for (const PolicyCall &call : kPolicyCalls) {
    const PolicyEntry *entry = llvm::find_if(entries, [&](const PolicyEntry &e) {
      return e.call == &call;
    });
    if (entry == entries.end())
      continue;
    os << "#define COLLC_POLICY_" << call.macro << " 1\n";
    xs << " \\\n  X(" << call.call << ", " << call.name << ", ";
    if (entry->choice)
      xs << "COLLC_CHOICE(" << call.name << "))";
    else
      xs << "COLLC_ONE(" << call.name << ", \""
         << describeSchedule(entry->specs.front()) << "\"))";
  }
  os << "#define COLLC_POLICY_CALLS(X)" << list << "\n";
  std::string text;
  llvm::raw_string_ostream out(text);
  out << "// Generated by collc policy from " << sources
      << ". Do not edit.\n"
         "// The calls this policy has schedules for "
         "(runtime/mpi/PolicyTable.cpp).\n"
         "#pragma once\n"
         "#define COLLC_POLICY_SOURCES \""
      << sources << "\"\n";
  out << "#define COLLC_POLICY_DIGEST 0x"
      << llvm::format_hex_no_prefix(digestOf(body, digestOf(header)), 16)
      << "ull\n"
      << body;
  return text;
}

