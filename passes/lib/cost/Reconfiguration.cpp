//===- Reconfiguration.cpp - digit routings on an optical switch ----------===//
#include "coll/Passes/Reconfiguration.h"

#include <algorithm>
#include <cstdlib>
#include <map>

using namespace coll;

std::vector<RoutingPhase> coll::routingPhases(const Digits &digits, int n) {
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

double coll::reconfiguredCost(const std::vector<RoutingPhase> &phases,
                              const SwitchModel &model, double m, int R) {
  const int s = static_cast<int>(phases.size());
  R = std::max(0, std::min(R, s - 1));
  double cost = s * model.alphaPhase + R * model.delta;
  const int segments = R + 1, base = s / segments, longer = s % segments;
  int k = 0;
  for (int g = 0; g < segments; ++g) {
    const int length = base + (g < longer ? 1 : 0);
    const int setting = phases[static_cast<size_t>(k)].distance;
    for (int i = 0; i < length; ++i, ++k) {
      const RoutingPhase &p = phases[static_cast<size_t>(k)];
      double hops = static_cast<double>(p.distance) / setting;
      cost += hops * (model.alphaHop + model.beta * m * p.share);
    }
  }
  return cost;
}

int coll::bestReconfigurations(const std::vector<RoutingPhase> &phases,
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
