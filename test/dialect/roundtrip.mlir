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
