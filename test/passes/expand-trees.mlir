// RUN: coll-opt %s -coll-expand-trees=ranks=5 | FileCheck %s
// RUN: not coll-opt %s -coll-expand-trees 2>&1 | FileCheck %s --check-prefix=NORANKS

// The binomial tree over ranks relative to the root (2): the root sends to
// relative rank 4 first, the largest subtree ({2, 3}) next, then both.
// CHECK-LABEL: coll.program @bcast_binomial
// CHECK-SAME: num_parts = 1 : i64, num_ranks = 5 : i64, op = #coll.op<sum>, root = 2 : i64
// CHECK-NEXT: coll.step "broadcast" copy {2 -> 1 [0]}
// CHECK-NEXT: coll.step "broadcast" copy {2 -> 4 [0]}
// CHECK-NEXT: coll.step "broadcast" copy {2 -> 3 [0], 4 -> 0 [0]}
// CHECK-NEXT: }
// NORANKS: error: collective 'bcast_binomial' has a symbolic rank count; give one with ranks=N
coll.collective @bcast_binomial {kind = #coll.kind<broadcast>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 2 : i64, schedule = #coll.schedule<binomial>}

// The flat tree (the naive root): P - 1 steps into the root.
// CHECK-LABEL: coll.program @reduce_flat
// CHECK-NEXT: coll.step "reduce" combine {1 -> 0 [0]}
// CHECK-NEXT: coll.step "reduce" combine {2 -> 0 [0]}
// CHECK-NEXT: coll.step "reduce" combine {3 -> 0 [0]}
// CHECK-NEXT: coll.step "reduce" combine {4 -> 0 [0]}
// CHECK-NEXT: }
coll.collective @reduce_flat {kind = #coll.kind<reduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 0 : i64, schedule = #coll.schedule<flat>}

// A gather moves each subtree's blocks (block b is rank b's) up the same
// tree, rooted at 1.
// CHECK-LABEL: coll.program @gather_binomial
// CHECK-SAME: num_parts = 5 : i64, num_ranks = 5 : i64
// CHECK-NEXT: coll.step "gather" copy {2 -> 1 [2], 4 -> 3 [4]}
// CHECK-NEXT: coll.step "gather" copy {3 -> 1 [3, 4]}
// CHECK-NEXT: coll.step "gather" copy {0 -> 1 [0]}
// CHECK-NEXT: }
coll.collective @gather_binomial {kind = #coll.kind<gather>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, root = 1 : i64, schedule = #coll.schedule<binomial>}
