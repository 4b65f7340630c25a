// RUN: coll-opt %s -coll-expand-digits=ranks=5 | FileCheck %s
// RUN: not coll-opt %s -coll-expand-digits 2>&1 | FileCheck %s --check-prefix=NORANKS

// Bruck (radix 2): in phase k the blocks at offsets whose bit k is set go
// to rank + 2^k: offsets {1, 3}, then {2, 3}, then {4}.
// CHECK-LABEL: coll.program @alltoall_bruck
// CHECK-SAME: num_parts = 5 : i64, num_ranks = 5 : i64
// CHECK-NEXT: coll.step "phase 0" copy {0 -> 1 [1, 3], 1 -> 2 [1, 3], 2 -> 3 [1, 3], 3 -> 4 [1, 3], 4 -> 0 [1, 3]}
// CHECK-NEXT: coll.step "phase 1" copy {0 -> 2 [2, 3], 1 -> 3 [2, 3], 2 -> 4 [2, 3], 3 -> 0 [2, 3], 4 -> 1 [2, 3]}
// CHECK-NEXT: coll.step "phase 2" copy {0 -> 4 [4], 1 -> 0 [4], 2 -> 1 [4], 3 -> 2 [4], 4 -> 3 [4]}
// CHECK-NEXT: }
// NORANKS: error: collective 'alltoall_bruck' has a symbolic rank count; give one with ranks=N
coll.collective @alltoall_bruck {kind = #coll.kind<alltoall>, op = #coll.op<sum>, radix = 2 : i64, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<radix>}

// ReTri (balanced ternary, seeds/002): offsets 1..4 centered are +1, +2,
// -2, -1, in digits (low first) +1; -1 +1; +1 -1; -1. Phase 0 sends digit
// +1 to rank + 1 and -1 to rank - 1, phase 1 digit +1 to rank + 3 and -1
// to rank - 3: ceil(log3 5) = 2 phases.
// CHECK-LABEL: coll.program @alltoall_retri
// CHECK-NEXT: coll.step "phase 0" copy {0 -> 1 [1, 3], 1 -> 2 [1, 3], 2 -> 3 [1, 3], 3 -> 4 [1, 3], 4 -> 0 [1, 3]}
// CHECK-NEXT: coll.step "phase 0" copy {0 -> 4 [2, 4], 1 -> 0 [2, 4], 2 -> 1 [2, 4], 3 -> 2 [2, 4], 4 -> 3 [2, 4]}
// CHECK-NEXT: coll.step "phase 1" copy {0 -> 3 [2], 1 -> 4 [2], 2 -> 0 [2], 3 -> 1 [2], 4 -> 2 [2]}
// CHECK-NEXT: coll.step "phase 1" copy {0 -> 2 [3], 1 -> 3 [3], 2 -> 4 [3], 3 -> 0 [3], 4 -> 1 [3]}
// CHECK-NEXT: }
coll.collective @alltoall_retri {kind = #coll.kind<alltoall>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<balanced_ternary>}
