//===- OpticalSwitch.h - a topology that changes between phases -*- C++ -*-===//
//
// An optical circuit switch (seeds/002, design.md 3.2 and 5; issue 5): each
// node has `ports` circuits. Before a phase the switch may be set, at
// `delta` us, to exactly the circuits that phase uses; the phases up to the
// next setting travel over those circuits (shortest paths and their
// congestion, as on any topology). Each setting is a Boost.Graph topology
// (coll::Topology); the switch is set for phase 0 before the call.
//
// A program's phases are its groups of steps that run together: a
// communication step and the steps that overlap it on the other ports
// (ReTri's + and - steps), with the local steps after them. The cheapest
// settings for a size are found exactly by dynamic programming over the
// phases, any subset of them (not only balanced segments), and the sizes
// where the best settings change by the lower envelope of the plans'
// affine costs. On ReTri with n = 3^s it reproduces seed 002's C(R).
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_OPTICALSWITCH_H
#define COLL_PASSES_OPTICALSWITCH_H

#include "coll/Passes/CostModel.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace coll {

/// "0, 2, 3": phases (or steps) as a list.
std::string listText(const std::vector<int64_t> &values);

/// Where to set the switch, and what that costs.
struct SwitchPlan {
  /// Phases before which the switch is set, ascending; the first is 0.
  std::vector<int64_t> settings;
  AffineCost cost;
  int64_t reconfigurations() const {
    return static_cast<int64_t>(settings.size()) - 1;
  }
};

class OpticalSwitch {
public:
  /// The phases of `program` on `model`'s switch (ports circuits per node,
  /// hop_latency per circuit, beta per byte, delta per reconfiguration).
  /// nullopt and `error` when the program cannot run on it.
  static std::optional<OpticalSwitch> build(ProgramOp program,
                                            const MachineModel &model,
                                            std::string &error);

  int64_t numPhases() const { return static_cast<int64_t>(canSet.size()); }
  /// Whether any message leaves its rank (not so at P = 1): else there is
  /// nothing to set the switch for.
  bool routesMessages() const { return routes; }
  /// The first step of each phase.
  const std::vector<int64_t> &phaseStarts() const { return starts; }
  /// Whether the switch can be set to phase p's circuits (no node needs
  /// more than `ports`).
  bool settable(int64_t phase) const { return canSet[phase]; }

  /// The cheapest plan for `bytes` (on ties, fewer reconfigurations).
  SwitchPlan best(double bytes) const;
  /// The plan that sets the switch before `settings` (ascending, first 0,
  /// each settable); its cost is infinite if a phase cannot be routed.
  SwitchPlan plan(std::vector<int64_t> settings) const;
  /// The cheapest plan per size range, ascending: (first size where the
  /// next range starts, plan); the last range has no end (infinity).
  std::vector<std::pair<double, SwitchPlan>> plansBySize() const;

private:
  double delta = 0;
  bool routes = false;
  std::vector<int64_t> starts;
  std::vector<bool> canSet;
  /// phaseCost[s][p] (s <= p): phase p on the circuits set for phase s.
  std::vector<std::vector<AffineCost>> phaseCost;
};

} // namespace coll

#endif
