// The optical circuit switch as a topology that changes between phases
// (passes/lib/cost/OpticalSwitch.cpp): on ReTri with n = 3^s, and on Bruck
// with n = 2^s, its plans cost exactly seed 002's closed forms
// (coll/reconfiguration.hpp), and its exact optimum over all settings is
// R* at the extremes of delta and never worse than the best balanced plan.
#include "Helpers.h"

#include "coll/Passes/OpticalSwitch.h"
#include "coll/reconfiguration.hpp"

#include <doctest/doctest.h>

using namespace coll;
using collc_test::expand;

namespace {

MachineModel switchModel(double delta) {
  MachineModel m;
  m.alpha = 1.7;     // per phase
  m.hopLatency = 1;  // per circuit
  m.beta = 1 / 50e3; // 50 GB/s
  m.delta = delta;
  m.ports = 2;
  m.topology = "optical_switch";
  return m;
}

SwitchModel closedForm(const MachineModel &m) {
  return SwitchModel{m.alpha, m.hopLatency, m.beta, m.delta};
}

struct Routing {
  const char *digits;
  Digits system;
};

const Routing kReTri{"balanced_ternary", Digits{DigitSystem::balancedTernary, 3}};
const Routing kBruck{"radix(2)", Digits{DigitSystem::radix, 2}};

std::string alltoall(const Routing &r) {
  return std::string("collective c : alltoall<any> { ranks P; digits ") +
         r.digits + "; }";
}

std::vector<int64_t> settingsOf(int phases, int R) {
  std::vector<int64_t> settings;
  for (int p : reconfigurationPhases(phases, R))
    settings.push_back(p);
  return settings;
}

} // namespace

TEST_CASE("balanced plans cost seed 002's C(R): ReTri n = 27, 81; Bruck "
          "n = 16, 64") {
  for (const auto &entry : {std::pair{kReTri, 27}, std::pair{kReTri, 81},
                             std::pair{kBruck, 16}, std::pair{kBruck, 64}}) {
    const auto &routing = entry.first;
    const int n = entry.second;
    CAPTURE(n);
    mlir::MLIRContext context;
    mlir::OwningOpRef<mlir::ModuleOp> module;
    ProgramOp program = expand(context, module, alltoall(routing), n);
    const MachineModel model = switchModel(35);
    std::string error;
    std::optional<OpticalSwitch> ocs =
        OpticalSwitch::build(program, model, error);
    REQUIRE_MESSAGE(ocs, error);
    std::vector<RoutingPhase> phases = routingPhases(routing.system, n);
    REQUIRE(ocs->numPhases() == static_cast<int64_t>(phases.size()));
    for (int R = 0; R < static_cast<int>(phases.size()); ++R)
      for (double block : {1e3, 1e5, 3e6}) {
        CAPTURE(R);
        CAPTURE(block);
        // M = one block; the closed form's m = n blocks per node.
        SwitchPlan plan = ocs->plan(settingsOf(ocs->numPhases(), R));
        CHECK(plan.cost.at(block) ==
              doctest::Approx(reconfiguredCost(phases, closedForm(model),
                                               n * block, R)));
      }
  }
}

TEST_CASE("the exact optimum: every phase as delta -> 0, never as delta "
          "grows, never worse than R*") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramOp program = expand(context, module, alltoall(kReTri), 81);
  std::vector<RoutingPhase> phases = routingPhases(kReTri.system, 81);
  for (double block : {1e2, 1e4, 1e6}) {
    CAPTURE(block);
    std::string error;
    std::optional<OpticalSwitch> cheap =
        OpticalSwitch::build(program, switchModel(1e-9), error);
    std::optional<OpticalSwitch> dear =
        OpticalSwitch::build(program, switchModel(1e12), error);
    REQUIRE(cheap);
    REQUIRE(dear);
    CHECK(cheap->best(block).settings == std::vector<int64_t>{0, 1, 2, 3});
    CHECK(dear->best(block).settings == std::vector<int64_t>{0});
    for (double delta : {1.0, 30.0, 1e3, 5e4}) {
      CAPTURE(delta);
      const MachineModel model = switchModel(delta);
      std::optional<OpticalSwitch> ocs =
          OpticalSwitch::build(program, model, error);
      REQUIRE(ocs);
      int R = bestReconfigurations(phases, closedForm(model), 81 * block);
      CHECK(ocs->best(block).cost.at(block) <=
            reconfiguredCost(phases, closedForm(model), 81 * block, R) + 1e-9);
    }
  }
}

TEST_CASE("plans by size: the cheapest plan of each range, ranges meet at "
          "crossovers") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramOp program = expand(context, module, alltoall(kReTri), 27);
  std::string error;
  std::optional<OpticalSwitch> ocs =
      OpticalSwitch::build(program, switchModel(100), error);
  REQUIRE(ocs);
  auto ranges = ocs->plansBySize();
  // Small blocks: the static ring; large: reconfigure every phase.
  REQUIRE(ranges.size() >= 2);
  CHECK(ranges.front().second.settings == std::vector<int64_t>{0});
  CHECK(ranges.back().second.settings == std::vector<int64_t>{0, 1, 2});
  double from = 0;
  for (auto &[until, plan] : ranges) {
    double probe = std::isinf(until) ? from * 2 + 1 : (from + until) / 2;
    CAPTURE(probe);
    CHECK(ocs->best(probe).settings == plan.settings);
    from = until;
  }
}

TEST_CASE("a phase that needs more circuits than ports is an error") {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  ProgramOp program = expand(context, module, alltoall(kReTri), 27);
  MachineModel onePort = switchModel(10);
  onePort.ports = 1;
  std::string error;
  CHECK_FALSE(OpticalSwitch::build(program, onePort, error));
  CHECK(error == "phase 0 needs 2 circuits at rank 0; the optical switch has "
                 "ports = 1 per node");
}
