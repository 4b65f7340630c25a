//===- Selection.cpp - choosing candidates by the cost model --------------===//
#include "coll/Passes/Selection.h"
#include "coll/Passes/Lowering.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace coll;
using namespace mlir;

std::vector<int64_t> coll::pricedRankCounts(CollectiveOp spec) {
  if (std::optional<uint64_t> fixed = spec.getNumRanks())
    return {static_cast<int64_t>(*fixed)};
  std::vector<int64_t> counts;
  for (int64_t P = 1; P <= 64; ++P)
    counts.push_back(P);
  return counts;
}

std::optional<PricedCandidates>
coll::priceCandidates(llvm::ArrayRef<CollectiveOp> candidates, int64_t P,
                      const MachineModel &model, std::string &why) {
  std::optional<Topology> topology = model.topologyFor(P, why);
  if (!why.empty())
    return std::nullopt;
  PricedCandidates priced;
  if (candidates.empty())
    return priced;
  // Group schedules without their transfers: the moves alone price them.
  CollectiveOp first = candidates.front();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(first.getLoc());
  OpBuilder builder(scratch->getBody(), scratch->getBody()->end());
  for (CollectiveOp c : candidates) {
    if (!c.acceptsRanks(P)) {
      priced.costs.push_back(std::nullopt);
      continue;
    }
    ProgramOp program = expandCollective(c, P, builder, /*withTransfers=*/false);
    priced.costs.push_back(
        affineCost(program, model, topology ? &*topology : nullptr));
  }
  priced.cheapest = cheapestBySize(priced.costs);
  return priced;
}
