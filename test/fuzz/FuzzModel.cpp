// Fuzz target: machine models and topology files (passes/lib/cost). Any
// bytes, read as a model (`key = value` lines) and as a topology file
// (`nodes`, `link`, `place`): each is parsed or refused with
// "LINE:COL: message"; a parsed model's built-in topology is built for a
// few rank counts. Never a crash, a hang or an allocation past the
// documented limits (Topology::kMaxNodes). Built as FuzzColl.cpp is.
#include "coll/Passes/CostModel.h"
#include "coll/Passes/Topology.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<coll::MachineModel> model = coll::MachineModel::parse(text, error);
  // (A topology file names a path: not read here, the fuzzer writes no files.)
  if (model && model->topologyFile.empty())
    for (int64_t P : {1, 2, 5, 64}) {
      std::string topologyError;
      (void)model->topologyFor(P, topologyError);
    }
  error.clear();
  (void)coll::Topology::parse(text, error);
  return 0;
}
