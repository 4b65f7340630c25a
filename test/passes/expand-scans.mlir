// RUN: coll-opt %s -coll-expand-scans=ranks=5 | FileCheck %s
// RUN: coll-opt %s -coll-expand-scans=ranks=1 | FileCheck %s --check-prefix=P1
// RUN: not coll-opt %s -coll-expand-scans 2>&1 | FileCheck %s --check-prefix=NORANKS

// Recursive doubling (Hillis and Steele): in step k rank i folds the prefix
// of i - 2^k in front of its own; ceil(log2 5) = 3 steps.
// CHECK-LABEL: coll.program @scan_doubling
// CHECK-SAME: num_parts = 1 : i64, num_ranks = 5 : i64
// CHECK-NEXT: coll.step "scan" fold {0 -> 1 [0], 1 -> 2 [0], 2 -> 3 [0], 3 -> 4 [0]}
// CHECK-NEXT: coll.step "scan" fold {0 -> 2 [0], 1 -> 3 [0], 2 -> 4 [0]}
// CHECK-NEXT: coll.step "scan" fold {0 -> 4 [0]}
// CHECK-NEXT: }
// P1-LABEL: coll.program @scan_doubling
// P1-SAME: num_ranks = 1 : i64
// P1-NEXT: {{^  }$}}
// NORANKS: error: collective 'scan_doubling' has a symbolic rank count; give one with ranks=N
coll.collective @scan_doubling {kind = #coll.kind<inclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<doubling>}

// The chain: P - 1 steps, each one message.
// CHECK-LABEL: coll.program @scan_linear
// CHECK-NEXT: coll.step "scan" fold {0 -> 1 [0]}
// CHECK-NEXT: coll.step "scan" fold {1 -> 2 [0]}
// CHECK-NEXT: coll.step "scan" fold {2 -> 3 [0]}
// CHECK-NEXT: coll.step "scan" fold {3 -> 4 [0]}
// CHECK-NEXT: }
coll.collective @scan_linear {kind = #coll.kind<inclusive_scan>, op = #coll.op<max>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// An exclusive scan carries the inclusive prefix in part 0 and ends with a
// shift of it into the next rank's part 1 (rank 0's stays undefined).
// CHECK-LABEL: coll.program @exscan_doubling
// CHECK-SAME: num_parts = 2 : i64, num_ranks = 5 : i64
// CHECK-NEXT: coll.step "scan" fold {0 -> 1 [0], 1 -> 2 [0], 2 -> 3 [0], 3 -> 4 [0]}
// CHECK-NEXT: coll.step "scan" fold {0 -> 2 [0], 1 -> 3 [0], 2 -> 4 [0]}
// CHECK-NEXT: coll.step "scan" fold {0 -> 4 [0]}
// CHECK-NEXT: coll.step "shift" copy {0 -> 1 [0] into [1], 1 -> 2 [0] into [1], 2 -> 3 [0] into [1], 3 -> 4 [0] into [1]}
// CHECK-NEXT: }
coll.collective @exscan_doubling {kind = #coll.kind<exclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<doubling>}

// The exclusive chain: rank r receives the prefix of ranks 0..r-1 straight
// into its result (part 1), and passes on, from scratch part 2, that prefix
// with its own value folded after it: P - 1 messages.
// CHECK-LABEL: coll.program @exscan_linear
// CHECK-SAME: num_parts = 3 : i64, num_ranks = 5 : i64, num_scratch_parts = 1 : i64
// CHECK-NEXT: coll.step "scan" copy {0 -> 1 [0] into [1]}
// CHECK-NEXT: coll.step "carry" copy {1 -> 1 [1] into [2]}
// CHECK-NEXT: coll.step "carry" fold {1 -> 1 [0] into [2]}
// CHECK-NEXT: coll.step "scan" copy {1 -> 2 [2] into [1]}
// CHECK-NEXT: coll.step "carry" copy {2 -> 2 [1] into [2]}
// CHECK-NEXT: coll.step "carry" fold {2 -> 2 [0] into [2]}
// CHECK-NEXT: coll.step "scan" copy {2 -> 3 [2] into [1]}
// CHECK-NEXT: coll.step "carry" copy {3 -> 3 [1] into [2]}
// CHECK-NEXT: coll.step "carry" fold {3 -> 3 [0] into [2]}
// CHECK-NEXT: coll.step "scan" copy {3 -> 4 [2] into [1]}
// CHECK-NEXT: }
coll.collective @exscan_linear {kind = #coll.kind<exclusive_scan>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// A fixed rank count needs no option; other kinds are left to their passes.
// CHECK-LABEL: coll.program @fixed
// CHECK-SAME: num_ranks = 2 : i64
// CHECK-NEXT: coll.step "scan" fold {0 -> 1 [0]}
// CHECK-NEXT: }
// CHECK: coll.collective @ring
// CHECK-NOT: coll.program
coll.collective @fixed {kind = #coll.kind<inclusive_scan>, num_ranks = 2 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
coll.collective @ring {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_ranks = 4 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
