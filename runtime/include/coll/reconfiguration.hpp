#pragma once
// Digit routings on an optical circuit switch (seed 002, design.md 3.2, 5).
// n nodes with two ports each on an optical
// circuit switch. Before phase k of a digit routing (ReTri, Bruck) the switch
// may be set to the edges {i, i +- d_k}; a phase that reuses the setting of
// an earlier phase t travels d_k / d_t hops over it. With R reconfigurations
// in balanced segments the routing costs
//   phases * alpha_phase + sum over phases (hops * (alpha_hop + beta * bytes))
//     + R * delta
// where `bytes` is the largest message of the phase (its + and - messages
// leave on the two ports at once). The phases, offsets and bytes come from
// coll/digits.hpp, the routing the compiler verifies and the runtime runs.
//
// MPI-free and exception-free: the compiler prices routings with it (collc
// sweep, explain) and generated code asks it where to reconfigure.

#include <algorithm>
#include <map>
#include <vector>

#include "coll/digits.hpp"

namespace coll {

struct SwitchModel {
  double alphaPhase = 0; // us of startup per phase
  double alphaHop = 0;   // us per hop
  double beta = 0;       // us per byte
  double delta = 0;      // us per reconfiguration
};

/// One phase of a routing: its distance (the smallest |offset|) and its
/// largest message as a fraction of m (the bytes each node starts with).
struct RoutingPhase {
  int distance;
  double share;
};

// The phases of the routing for n nodes, in order.
inline std::vector<RoutingPhase> routingPhases(const Digits &digits, int n) {
  std::map<int, RoutingPhase> byPhase;
  for (const DigitStep &step : digitSteps(digits, n)) {
    int distance = std::min(step.offset, n - step.offset);
    double share = static_cast<double>(step.blocks.size()) / n;
    auto [it, fresh] = byPhase.try_emplace(step.phase, RoutingPhase{distance, share});
    if (!fresh) {
      it->second.distance = std::min(it->second.distance, distance);
      it->second.share = std::max(it->second.share, share);
    }
  }
  std::vector<RoutingPhase> phases;
  for (auto &[phase, p] : byPhase)
    phases.push_back(p);
  return phases;
}

// The phases before which the switch is set (phase 0 always is): the
// starts of the R + 1 balanced segments.
inline std::vector<int> reconfigurationPhases(int phases, int R) {
  std::vector<int> starts;
  if (phases <= 0) return starts;
  R = std::max(0, std::min(R, phases - 1));
  const int segments = R + 1, base = phases / segments, longer = phases % segments;
  for (int g = 0, k = 0; g < segments; ++g) {
    starts.push_back(k);
    k += base + (g < longer ? 1 : 0);
  }
  return starts;
}

// The cost for m bytes per node with R reconfigurations (0 <= R < phases):
// the phases cut into R + 1 balanced segments (the longer ones first), each
// set up for its first phase's distance.
inline double reconfiguredCost(const std::vector<RoutingPhase> &phases,
                              const SwitchModel &model, double m, int R) {
  const int s = static_cast<int>(phases.size());
  if (s == 0) return 0;  // one node: nothing moves
  R = std::max(0, std::min(R, s - 1));
  double cost = s * model.alphaPhase + R * model.delta;
  const std::vector<int> starts = reconfigurationPhases(s, R);
  int setting = 0;
  for (int k = 0, next = 0; k < s; ++k) {
    if (next < static_cast<int>(starts.size()) && starts[static_cast<size_t>(next)] == k) {
      setting = phases[static_cast<size_t>(k)].distance;
      ++next;
    }
    const RoutingPhase &p = phases[static_cast<size_t>(k)];
    double hops = static_cast<double>(p.distance) / setting;
    cost += hops * (model.alphaHop + model.beta * m * p.share);
  }
  return cost;
}

// R* = argmin over R of reconfiguredCost (the smallest R on ties).
inline int bestReconfigurations(const std::vector<RoutingPhase> &phases,
                               const SwitchModel &model, double m) {
  int best = 0;
  double bestCost = reconfiguredCost(phases, model, m, 0);
  for (int R = 1; R < static_cast<int>(phases.size()); ++R) {
    double c = reconfiguredCost(phases, model, m, R);
    if (c < bestCost) {
      best = R;
      bestCost = c;
    }
  }
  return best;
}

}  // namespace coll
