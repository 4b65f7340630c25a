// Mutant of Bruck radix 2 (P = 6): phase 1 moves its blocks one rank instead of two.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 6, after the last step, rank 0, part 2: rank 0's part 2 ends without the rank 4 contribution (expected contributions of ranks {4}, each once, found contributions of ranks {5})
// CHECK: alltoall_bruck: VIOLATED for P in {6} ({{.*}} s)
// PASS: error: coverage violated in 'alltoall_bruck': P = 6, after the last step, rank 0, part 2: rank 0's part 2 ends without the rank 4 contribution (expected contributions of ranks {4}, each once, found contributions of ranks {5})
// SIM: error: coverage violated in 'alltoall_bruck' for P = 6: after the last step, rank 0 ends with part 2 = {5}, missing {4}

module {
  coll.program @alltoall_bruck attributes {kind = #coll.kind<alltoall>, num_parts = 6 : i64, num_ranks = 6 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [1, 3, 5], 1 -> 2 [1, 3, 5], 2 -> 3 [1, 3, 5], 3 -> 4 [1, 3, 5], 4 -> 5 [1, 3, 5], 5 -> 0 [1, 3, 5]}
    coll.step "phase 1" copy {0 -> 1 [2, 3], 1 -> 2 [2, 3], 2 -> 3 [2, 3], 3 -> 4 [2, 3], 4 -> 5 [2, 3], 5 -> 0 [2, 3]}
    coll.step "phase 2" copy {0 -> 4 [4, 5], 1 -> 5 [4, 5], 2 -> 0 [4, 5], 3 -> 1 [4, 5], 4 -> 2 [4, 5], 5 -> 3 [4, 5]}
  }
}
