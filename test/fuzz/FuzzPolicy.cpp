// Fuzz target: `collc policy`'s inputs. Any bytes, read as a .coll file of
// a policy: after the frontend, the checks `collc policy` makes before any
// proof (tools/collc/PolicyEntries.cpp: each collective names the MPI call
// it serves, with `any` element type and root) and the header inputs
// (a `choose` priced by the seed 000 model: coll-select-schedules); what
// passes is translated to the policy's header and its table of calls, as
// `collc policy --sources` writes them. Never a crash, a hang or an unchecked spec reaching the
// emitter. (The proofs are the steps target's; the library's own checks
// of a loaded policy.so read a table of pointers, not bytes, and are
// tested in test/preload.) Built as FuzzColl.cpp is.
#include "FuzzInput.h"
#include "PolicyEntries.h"

#include "coll/Passes/CostModel.h"
#include "coll/Passes/Lowering.h"
#include "coll/Passes/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#ifndef COLLC_FUZZ_MODEL
#error "COLLC_FUZZ_MODEL: the model a policy's choices are priced with (CMakeLists.txt)"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const coll::MachineModel *model = [] {
    std::string error;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(COLLC_FUZZ_MODEL);
    std::optional<coll::MachineModel> loaded;
    if (file)
      loaded = coll::MachineModel::parse((*file)->getBuffer(), error);
    if (!loaded) {
      llvm::errs() << COLLC_FUZZ_MODEL << ": " << error << "\n";
      std::abort();
    }
    return new coll::MachineModel(*loaded);
  }();
  mlir::OwningOpRef<mlir::ModuleOp> module = parseFuzzInput(data, size, "policy.coll");
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  collc::PolicyEntries entries;
  if (mlir::failed(collc::collectPolicyEntries(*module, entries)) || entries.empty())
    return 0;
  mlir::PassManager pm(module->getContext());
  pm.addPass(coll::createSelectSchedules(*model));
  if (mlir::failed(pm.run(*module)))
    return 0;
  std::string header;
  llvm::raw_string_ostream out(header);
  if (mlir::failed(coll::translateToCpp(*module, out, "collc_mpi_policy", "policy.coll")))
    return 0;
  llvm::SmallVector<collc::PolicyEntry> list;
  for (auto &[call, entry] : entries)
    list.push_back(entry);
  (void)collc::policyCallsHeader(list, "policy.coll", header);
  return 0;
}
