// The C++ target alone: a coll.switch_settings printed as NAME_switch_settings,
// from a table (an optical switch model: the settings per P and size, made
// up here) or from the model's constants (R* found at run time).
// RUN: coll-translate --coll-to-cpp --split-input-file %s | FileCheck %s

// CHECK-LABEL: /// retri_switch_settings(P, bytes): the phases before which the optical circuit switch is
// CHECK: /// on model ocs (a made-up switch),
// CHECK: inline std::vector<int> retri_switch_settings(int P, std::size_t bytes) {
// CHECK-NEXT:   const std::size_t block = P > 0 ? bytes / static_cast<std::size_t>(P) : 0;
// CHECK-NEXT:   (void)block;
// CHECK-NEXT:   switch (P) {
// CHECK-NEXT:   case 1:
// CHECK-NEXT:     return {};
// CHECK-NEXT:   case 9:
// CHECK-NEXT:     if (block < 1000u)
// CHECK-NEXT:       return {0};
// CHECK-NEXT:     if (block < 9000u)
// CHECK-NEXT:       return {0, 2};
// CHECK-NEXT:     return {0, 1, 2};
// CHECK-NEXT:   default:
// CHECK-NEXT:     throw coll::Error("retri_switch_settings: P = " + std::to_string(P) + " was not priced at compile time");
module {
  coll.collective @retri {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, reconfigure, schedule = #coll.schedule<balanced_ternary>}
  coll.switch_settings @retri {description = "a made-up switch", model = "ocs",
      table = [#coll.switch_plan<ranks = 1, bounds = [], settings = []>,
               #coll.switch_plan<ranks = 9, bounds = [1000, 9000], settings = [array<i64: 0>, array<i64: 0, 2>, array<i64: 0, 1, 2>]>]}
}

// -----

// CHECK-LABEL: /// retri_switch_settings(P, bytes): the phases of the routing before which an optical
// CHECK: /// on model consts: alpha_phase 1.5 us, hop 0.25 us, beta 2e-05 us/B, delta 100 us.
// CHECK-NEXT: inline std::vector<int> retri_switch_settings(int P, std::size_t bytes) {
// CHECK-NEXT:   const coll::SwitchModel model{1.5, 0.25, 2.0000000000000002e-05, 100};
// CHECK-NEXT:   const std::vector<coll::RoutingPhase> phases = coll::routingPhases(coll::Digits{coll::DigitSystem::balancedTernary, 3}, P);
module {
  coll.collective @retri {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, reconfigure, schedule = #coll.schedule<balanced_ternary>}
  coll.switch_settings @retri {constants = array<f64: 1.5, 0.25, 2.0e-05, 100.0>, description = "unused", model = "consts"}
}
