// RUN: coll-opt %s | coll-opt | FileCheck %s

// CHECK-LABEL: coll.collective @ring
// CHECK-SAME: group = #coll.group<cyclic>
// CHECK-SAME: kind = #coll.kind<allreduce>
// CHECK-SAME: op = #coll.op<sum>
// CHECK-SAME: rank_constraint = #coll.ranks<any>
// CHECK-SAME: schedule = #coll.schedule<linear>
coll.collective @ring {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// CHECK-LABEL: coll.collective @bcast_any
// CHECK-SAME: any_root
// CHECK-NOT: root =
coll.collective @bcast_any {any_root, kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<binomial>}

// CHECK-LABEL: coll.collective @halving
// CHECK-SAME: element_type = f64
// CHECK-SAME: group = #coll.group<xor>
// CHECK-SAME: num_ranks = 8
coll.collective @halving {element_type = f64, group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_ranks = 8 : i64, op = #coll.op<max>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}

// CHECK-LABEL: coll.program @two
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]} move [1, 2) -> [0, 1)
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 1 [0], 1 -> 0 [1]}
coll.program @two attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]} move [1, 2) -> [0, 1)
  coll.step "all-gather" copy {0 -> 1 [0], 1 -> 0 [1]}
}

// What coll-select-schedules writes round-trips, costs exactly (an f64 that
// six digits do not hold).
// CHECK-LABEL: coll.choice @pick
// CHECK-SAME: candidates = [@pick_fast, @pick_ring]
// CHECK-SAME: estimates = array<i64: 4>
// CHECK-SAME: priced = [#coll.priced<ranks = 4, bounds = [8000], picks = [0, 1], costs = [2.000000e+00, 2.2900373333333334E-5, 6.000000e+00, 1.500000e-03]>]
// CHECK-SAME: priced_up_to = 64 : i64
coll.collective @pick_fast {choice_of = "pick", group = #coll.group<xor>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}
coll.collective @pick_ring {choice_of = "pick", group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
coll.choice @pick {candidates = [@pick_fast, @pick_ring], description = "d", estimates = array<i64: 4>, model = "m", priced = [#coll.priced<ranks = 4, bounds = [8000], picks = [0, 1], costs = [2.0, 2.2900373333333333e-05, 6.0, 1.5e-03]>], priced_up_to = 64 : i64}

// CHECK-LABEL: coll.collective @retri
// CHECK-NEXT: coll.switch_settings @retri {description = "d", model = "m", table = [#coll.switch_plan<ranks = 9, bounds = [4096], settings = [array<i64: 0>, array<i64: 0, 1>]>]}
// CHECK-NEXT: coll.switch_settings @retri {constants = array<f64: 1.700000e+00, 1.000000e+00, 2.2900373333333334E-5, 1.000000e+02>, description = "d", model = "m"}
coll.collective @retri {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, reconfigure, schedule = #coll.schedule<balanced_ternary>}
coll.switch_settings @retri {description = "d", model = "m", table = [#coll.switch_plan<ranks = 9, bounds = [4096], settings = [array<i64: 0>, array<i64: 0, 1>]>]}
coll.switch_settings @retri {constants = array<f64: 1.7, 1.0, 2.2900373333333333e-05, 100.0>, description = "d", model = "m"}
