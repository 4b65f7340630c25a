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

PricedCandidates coll::pricePrograms(llvm::ArrayRef<ProgramOp> programs,
                                     const MachineModel &model,
                                     const Topology *topology) {
  PricedCandidates priced;
  for (ProgramOp program : programs)
    priced.costs.push_back(program ? std::optional<AffineCost>(
                                         affineCost(program, model, topology))
                                   : std::nullopt);
  priced.cheapest = cheapestBySize(priced.costs);
  return priced;
}

std::optional<PricedCandidates>
coll::priceCandidates(llvm::ArrayRef<CollectiveOp> candidates, int64_t P,
                      const MachineModel &model, std::string &why) {
  std::optional<Topology> topology = model.topologyFor(P, why);
  if (!why.empty())
    return std::nullopt;
  const Topology *on = topology ? &*topology : nullptr;
  if (candidates.empty())
    return pricePrograms({}, model, on);
  // Group schedules without their transfers: the moves alone price them.
  CollectiveOp first = candidates.front();
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(first.getLoc());
  OpBuilder builder(scratch->getBody(), scratch->getBody()->end());
  std::vector<ProgramOp> programs;
  for (CollectiveOp c : candidates)
    programs.push_back(c.acceptsRanks(P) ? expandCollective(
                                               c, P, builder,
                                               /*withTransfers=*/false)
                                         : ProgramOp());
  return pricePrograms(programs, model, on);
}

std::optional<PricedSwitch> coll::priceOnSwitch(CollectiveOp spec, int64_t P,
                                               const MachineModel &model,
                                               std::string &why) {
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(spec.getLoc());
  OpBuilder builder(scratch->getBody(), scratch->getBody()->end());
  ProgramOp program = expandCollective(spec, P, builder, /*withTransfers=*/false);
  std::optional<OpticalSwitch> ocs = OpticalSwitch::build(program, model, why);
  if (!ocs)
    return std::nullopt;
  PricedSwitch priced;
  priced.routes = ocs->routesMessages();
  priced.plans = ocs->plansBySize();
  return priced;
}
