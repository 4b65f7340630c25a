//===- Selection.h - choosing candidates by the cost model ------*- C++ -*-===//
//
// Cost-based selection (design.md 5): for one communicator size, the cost
// of each candidate (its program's affine cost on the model, on the
// model's topology for P when it has one) and the cheapest per message
// size. `collc compile` prints a `choose` dispatcher's thresholds from it
// and `collc explain` its summary lines and its costs at one P, so they
// cannot disagree.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_SELECTION_H
#define COLL_PASSES_SELECTION_H

#include "coll/Dialect/CollOps.h"
#include "coll/Passes/CostModel.h"
#include "coll/Passes/OpticalSwitch.h"

#include "llvm/ADT/ArrayRef.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coll {

/// The whole byte count a size range of cheapestBySize (or of an optical
/// switch's plans) ends before: sizes are whole bytes, so M < until is
/// M < ceil(until). A header's dispatcher tests this and explain prints it;
/// UINT64_MAX (no bound) from 1.8e19 B on, infinity included.
inline uint64_t thresholdBytes(double until) {
  return until < 1.8e19 ? static_cast<uint64_t>(std::ceil(until)) : UINT64_MAX;
}

/// The rank counts the compiler prices a spec at (a choose's thresholds,
/// reconfigure auto's table, explain's summary): its fixed count, else
/// every P in 1..64.
std::vector<int64_t> pricedRankCounts(CollectiveOp spec);

/// The candidates priced at one P.
struct PricedCandidates {
  /// Per candidate, its affine cost; none where it does not admit P.
  std::vector<std::optional<AffineCost>> costs;
  /// cheapestBySize(costs): (size where the next range starts, candidate
  /// index), the last range ending at infinity; empty if none admits P.
  std::vector<std::pair<double, size_t>> cheapest;
};

/// Prices `programs` (a null one is a candidate that does not admit P) on
/// `model`, on `topology` (the model's for their P, or null for none).
/// `collc explain --ranks P` prices its programs here.
PricedCandidates pricePrograms(llvm::ArrayRef<ProgramOp> programs,
                               const MachineModel &model,
                               const Topology *topology);

/// Prices `candidates` at P on `model` (expanded, then pricePrograms on the
/// model's topology for P). None, with `why`, when that topology does not
/// fit P (torus(2, 4) at P = 5) or cannot be read.
std::optional<PricedCandidates>
priceCandidates(llvm::ArrayRef<CollectiveOp> candidates, int64_t P,
                const MachineModel &model, std::string &why);

/// A spec's cheapest optical-switch settings per size at P (seeds/002):
/// `plans` as OpticalSwitch::plansBySize gives them; `routes` false when
/// the program sends nothing (no phase to set the switch for).
struct PricedSwitch {
  bool routes = false;
  std::vector<std::pair<double, SwitchPlan>> plans;
};

/// Prices `spec` at P on an optical-switch `model` (expanded, then its
/// phases on the switch). None, with `why`, when the switch cannot serve
/// a phase. `collc compile`'s reconfigure table and `collc explain`'s
/// summary both print this.
std::optional<PricedSwitch> priceOnSwitch(CollectiveOp spec, int64_t P,
                                          const MachineModel &model,
                                          std::string &why);

} // namespace coll

#endif
