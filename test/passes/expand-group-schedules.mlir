// RUN: coll-opt %s -split-input-file -coll-expand-group-schedules=ranks=4 | FileCheck %s
// RUN: coll-opt %s -split-input-file -coll-expand-group-schedules=ranks=3 -verify-diagnostics | FileCheck %s --check-prefix=P3

// The ring: one part to the right-hand neighbour per step.
// CHECK-LABEL: coll.program @ring
// CHECK-SAME: num_parts = 4 : i64, num_ranks = 4 : i64
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]} move [0, 1) -> [1, 2)
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]} move [1, 2) -> [2, 3)
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]} move [2, 3) -> [3, 4)
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]} move [3, 4) -> [0, 1)
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]} move [0, 1) -> [1, 2)
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]} move [1, 2) -> [2, 3)
// CHECK-NEXT: }
// P3-LABEL: coll.program @ring
coll.collective @ring {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

// The cyclic butterfly: rank x sends to x - c the parts of placements c..c+h-1,
// listed in the order of their chunks (coll::moveSend).
// CHECK-LABEL: coll.program @butterfly
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 2 [1, 2], 1 -> 3 [2, 3], 2 -> 0 [0, 3], 3 -> 1 [0, 1]} move [2, 4) -> [0, 2)
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 3 [3], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2]} move [1, 2) -> [0, 1)
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]} move [0, 1) -> [1, 2)
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 2 [0, 3], 1 -> 3 [0, 1], 2 -> 0 [1, 2], 3 -> 1 [2, 3]} move [0, 2) -> [2, 4)
// CHECK-NEXT: }
// P3-LABEL: coll.program @butterfly
// P3-SAME: num_ranks = 3
coll.collective @butterfly {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// Recursive halving: x xor 1 first; parts live in bit-reversed chunks.
// CHECK-LABEL: coll.program @halving
// CHECK-SAME: chunk_of_part = array<i64: 0, 2, 1, 3>
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 1 [1, 3], 1 -> 0 [0, 2], 2 -> 3 [1, 3], 3 -> 2 [0, 2]}
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 2 [2], 1 -> 3 [3], 2 -> 0 [0], 3 -> 1 [1]}
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 2 [0], 1 -> 3 [1], 2 -> 0 [2], 3 -> 1 [3]}
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 1 [0, 2], 1 -> 0 [1, 3], 2 -> 3 [0, 2], 3 -> 2 [1, 3]}
// expected-error @+1 {{collective 'halving' does not admit P = 3 (requires P == 2^k)}}
coll.collective @halving {group = #coll.group<xor>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}

// -----

// A fixed rank count needs no option.
// CHECK-LABEL: coll.program @fixed
// CHECK-SAME: num_ranks = 2 : i64
// CHECK-COUNT-2: coll.step
// CHECK-NOT: coll.step
// P3-LABEL: coll.program @fixed
// P3-SAME: num_ranks = 2 : i64
coll.collective @fixed {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_ranks = 2 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
