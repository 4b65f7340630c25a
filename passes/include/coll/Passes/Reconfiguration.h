//===- Reconfiguration.h - digit routings on an optical switch --*- C++ -*-===//
//
// Seed 002 (design.md 3.2, 5): n nodes with two ports each on an optical
// circuit switch. Before phase k of a digit routing (ReTri, Bruck) the switch
// may be set to the edges {i, i +- d_k}; a phase that reuses the setting of
// an earlier phase t travels d_k / d_t hops over it. With R reconfigurations
// in balanced segments the routing costs
//
//   phases * alpha_phase + sum over phases (hops * (alpha_hop + beta * bytes))
//     + R * delta
//
// where `bytes` is the largest message of the phase (its + and - messages
// leave on the two ports at once). The phases, offsets and bytes come from
// coll/digits.hpp, the routing the compiler verifies and the runtime runs.
//
//===----------------------------------------------------------------------===//
#ifndef COLL_PASSES_RECONFIGURATION_H
#define COLL_PASSES_RECONFIGURATION_H

#include "coll/digits.hpp"

#include <vector>

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

std::vector<RoutingPhase> routingPhases(const Digits &digits, int n);

/// The cost of the routing for m bytes per node with R reconfigurations
/// (0 <= R < phases), the phases cut into R + 1 balanced segments (the
/// longer ones first), each set up for its first phase's distance.
double reconfiguredCost(const std::vector<RoutingPhase> &phases,
                        const SwitchModel &model, double m, int R);

/// R* = argmin over R of reconfiguredCost (the smallest R on ties).
int bestReconfigurations(const std::vector<RoutingPhase> &phases,
                         const SwitchModel &model, double m);

} // namespace coll

#endif
