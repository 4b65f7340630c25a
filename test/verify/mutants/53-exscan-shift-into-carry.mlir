// Mutant of the linear exclusive scan (P = 4): the final shift files rank 2's prefix in rank 3's carry instead of its result.
// Expected: coverage violated (rank 3's own prefix is overwritten too, but no rank needs it, so that is no ownership violation).
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 3, part 1: rank 3's part 1 is empty after the last step (it never receives a value) (expected contributions of ranks {rank 0's part 0, rank 1's part 0, rank 2's part 0}, each once, found contributions of ranks {})
// CHECK: exscan_linear: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'exscan_linear': P = 4, after the last step, rank 3, part 1: rank 3's part 1 is empty after the last step (it never receives a value) (expected contributions of ranks {rank 0's part 0, rank 1's part 0, rank 2's part 0}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'exscan_linear' for P = 4: after the last step, rank 3 ends without part 1 (it never received it)

module {
  coll.program @exscan_linear attributes {kind = #coll.kind<exclusive_scan>, num_parts = 2 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "scan" fold {0 -> 1 [0]}
    coll.step "scan" fold {1 -> 2 [0]}
    coll.step "scan" fold {2 -> 3 [0]}
    coll.step "shift" copy {0 -> 1 [0] into [1], 1 -> 2 [0] into [1], 2 -> 3 [0] into [0]}
  }
}
