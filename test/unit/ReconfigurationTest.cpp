// Digit routings on an optical circuit switch (seed 002, design.md 5):
// the closed forms for ReTri, and R* at the extremes of delta.
#include "coll/reconfiguration.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace coll;

namespace {
const Digits kTernary{DigitSystem::balancedTernary, 3};
SwitchModel seed002(double delta) {
  SwitchModel m;
  m.alphaPhase = 1.7;
  m.alphaHop = 1;
  m.beta = 1.0 / 50e3; // 400 Gbit/s = 50 GB/s = 5e4 bytes per us
  m.delta = delta;
  return m;
}
} // namespace

TEST_CASE("ReTri's phases: distance 3^k, a third of the data each way") {
  std::vector<RoutingPhase> phases = routingPhases(kTernary, 81);
  REQUIRE(phases.size() == 4);
  for (int k = 0; k < 4; ++k) {
    CHECK(phases[k].distance == static_cast<int>(std::pow(3, k)));
    CHECK(phases[k].share == doctest::Approx(1.0 / 3));
  }
}

TEST_CASE("design.md's closed forms: static ring, every phase, C(R)") {
  std::vector<RoutingPhase> phases = routingPhases(kTernary, 81);
  const SwitchModel m = seed002(20);
  const double bytes = 3e6, s = 4, n = 81;
  const double perHop = m.alphaHop + m.beta * bytes / 3;
  // R = 0 is the static ring: (n - 1) / 2 hops in all.
  CHECK(reconfiguredCost(phases, m, bytes, 0) ==
        doctest::Approx(s * m.alphaPhase + perHop * (n - 1) / 2));
  // R = s - 1 reconfigures before every phase: one hop each.
  CHECK(reconfiguredCost(phases, m, bytes, 3) ==
        doctest::Approx(s * (m.alphaPhase + perHop) + (s - 1) * m.delta));
  // R = 1: two segments of two phases, (3^2 - 1)/2 = 4 hops each.
  CHECK(reconfiguredCost(phases, m, bytes, 1) ==
        doctest::Approx(s * m.alphaPhase + 2 * perHop * 4 + m.delta));
}

TEST_CASE("R* at the extremes: reconfigure every phase, or never") {
  std::vector<RoutingPhase> phases = routingPhases(kTernary, 81);
  for (double bytes : {1e3, 1e6, 256e6}) {
    CAPTURE(bytes);
    CHECK(bestReconfigurations(phases, seed002(1e-9), bytes) == 3);
    CHECK(bestReconfigurations(phases, seed002(1e12), bytes) == 0);
  }
}

TEST_CASE("the switch is set at the start of each balanced segment") {
  CHECK(reconfigurationPhases(4, 0) == std::vector<int>{0});
  CHECK(reconfigurationPhases(4, 1) == std::vector<int>{0, 2});
  CHECK(reconfigurationPhases(4, 3) == std::vector<int>{0, 1, 2, 3});
  CHECK(reconfigurationPhases(5, 1) == std::vector<int>{0, 3}); // longer first
  CHECK(reconfigurationPhases(4, 9) == std::vector<int>{0, 1, 2, 3});
  CHECK(reconfigurationPhases(0, 2).empty());
  CHECK(reconfiguredCost({}, seed002(1), 100, 0) == 0);
}
