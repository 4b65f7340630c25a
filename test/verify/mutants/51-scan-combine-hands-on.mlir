// Mutant of the recursive-doubling scan (P = 5): step 0 combines instead of folding, so every sender hands its prefix on and has nothing left to send in step 1.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 1, rank 0, part 0: rank 0's part 0 is sent at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// CHECK: scan_doubling: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'scan_doubling': P = 5, step 1, rank 0, part 0: rank 0's part 0 is sent at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// SIM: error: ownership violated in 'scan_doubling' for P = 5: step 1, rank 0 sends part 0, which it gave away at step 0

module {
  coll.program @scan_doubling attributes {kind = #coll.kind<inclusive_scan>, num_parts = 1 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "scan" combine {0 -> 1 [0], 1 -> 2 [0], 2 -> 3 [0], 3 -> 4 [0]}
    coll.step "scan" fold {0 -> 2 [0], 1 -> 3 [0], 2 -> 4 [0]}
    coll.step "scan" fold {0 -> 4 [0]}
  }
}
