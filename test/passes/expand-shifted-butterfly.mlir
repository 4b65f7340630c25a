// RUN: coll-opt %s -split-input-file -coll-expand-group-schedules=ranks=7 | FileCheck %s
// RUN: coll-opt %s -split-input-file -coll-expand-group-schedules=ranks=8 | FileCheck %s --check-prefix=P8

// butterfly(r = 1) on cyclic(7), design.md 3.1's worked example: the
// reductions of shifts 0 and 1 at once; step 0 moves 4 vectors (placements
// 4, 5, 6, 0 by t_-4), and {3, 0} gets its own slot (copy 1) beside {3}.
// The sum then sits at placements 0 and 1, so the first distribution step
// is skipped: 2 * 3 - 1 = 5 communication steps.
// CHECK-LABEL: coll.program @shifted
// CHECK-SAME: num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64
// CHECK-NEXT: coll.step "local" copy vectors {3 -> 10}
// CHECK-NEXT: coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 0 -> 10}
// CHECK-NEXT: coll.step "local" copy vectors {1 -> 8}
// CHECK-NEXT: coll.step "reduce-scatter" fold vectors {2 -> 0, 3 -> 1, 10 -> 8, 4 -> 2}
// CHECK-NEXT: coll.step "reduce-scatter" fold vectors {1 -> 0, 2 -> 8}
// CHECK-NEXT: coll.step "local" copy vectors {8 -> 1}
// CHECK-NEXT: coll.step "all-gather" copy vectors {0 -> 2, 1 -> 3}
// CHECK-NEXT: coll.step "all-gather" copy vectors {0 -> 4, 1 -> 5, 2 -> 6}
// CHECK-NEXT: }
// P8-LABEL: coll.program @shifted
// P8-SAME: num_parts = 8 : i64, num_ranks = 8 : i64
coll.collective @shifted {butterfly_r = 1 : i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// butterfly(r = max) on cyclic(7): all 7 shifts, no distribution, 3 steps.
// CHECK-LABEL: coll.program @latency
// CHECK-SAME: num_parts = 21 : i64, num_ranks = 7 : i64, num_scratch_parts = 14 : i64
// CHECK-NEXT: coll.step "local" copy vectors {0 -> 7, 1 -> 8, 2 -> 9, 3 -> 10, 4 -> 11, 5 -> 12, 6 -> 13}
// CHECK-NEXT: coll.step "reduce-scatter" fold vectors {4 -> 7, 5 -> 8, 6 -> 9, 0 -> 10, 1 -> 11, 2 -> 12, 3 -> 13}
// CHECK-NEXT: coll.step "local" copy vectors {8 -> 15, 9 -> 16, 10 -> 17, 11 -> 18, 12 -> 19, 13 -> 20, 7 -> 14}
// CHECK-NEXT: coll.step "reduce-scatter" fold vectors {9 -> 7, 3 -> 8, 10 -> 15, 4 -> 9, 11 -> 16, 5 -> 10, 12 -> 17, 6 -> 11, 13 -> 18, 0 -> 12, 7 -> 19, 1 -> 13, 8 -> 20, 2 -> 14}
// CHECK-NEXT: coll.step "reduce-scatter" fold vectors {8 -> 7, 9 -> 15, 10 -> 16, 11 -> 17, 12 -> 18, 13 -> 19, 14 -> 20}
// CHECK-NEXT: coll.step "local" copy vectors {7 -> 0, 15 -> 1, 16 -> 2, 17 -> 3, 18 -> 4, 19 -> 5, 20 -> 6}
// CHECK-NEXT: }
coll.collective @latency {butterfly_r = -1 : i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}

// -----

// butterfly(r = 2) on xor(8): shifts by xor 0..3, no scratch copies; the
// second and third folds are exchanges (every slot sends and receives).
// P8-LABEL: coll.program @halving2
// P8-SAME: chunk_of_part = array<i64: 0, 4, 2, 6, 1, 5, 3, 7>
// P8-NEXT: coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 7 -> 3}
// P8-NEXT: coll.step "reduce-scatter" fold vectors {2 -> 0, 3 -> 1, 0 -> 2, 1 -> 3}
// P8-NEXT: coll.step "reduce-scatter" fold vectors {1 -> 0, 0 -> 1, 3 -> 2, 2 -> 3}
// P8-NEXT: coll.step "all-gather" copy vectors {0 -> 4, 1 -> 5, 2 -> 6, 3 -> 7}
// P8-NEXT: }
// CHECK-LABEL: coll.program @halving2
coll.collective @halving2 {butterfly_r = 2 : i64, group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_ranks = 8 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<power_of_two>, schedule = #coll.schedule<butterfly>}
