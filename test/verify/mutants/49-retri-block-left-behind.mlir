// Mutant of ReTri (P = 9): phase 0 leaves the block at offset 7 behind on every rank.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 9, after the last step, rank 0, part 7: rank 0's part 7 ends without the rank 2 contribution (expected contributions of ranks {2}, each once, found contributions of ranks {3})
// CHECK: alltoall_retri: VIOLATED for P in {9} ({{.*}} s)
// PASS: error: coverage violated in 'alltoall_retri': P = 9, after the last step, rank 0, part 7: rank 0's part 7 ends without the rank 2 contribution (expected contributions of ranks {2}, each once, found contributions of ranks {3})
// SIM: error: coverage violated in 'alltoall_retri' for P = 9: after the last step, rank 0 ends with part 7 = {3}, missing {2}

module {
  coll.program @alltoall_retri attributes {kind = #coll.kind<alltoall>, num_parts = 9 : i64, num_ranks = 9 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [1, 4], 1 -> 2 [1, 4], 2 -> 3 [1, 4], 3 -> 4 [1, 4], 4 -> 5 [1, 4], 5 -> 6 [1, 4], 6 -> 7 [1, 4], 7 -> 8 [1, 4], 8 -> 0 [1, 4]}
    coll.step "phase 0" copy {0 -> 8 [2, 5, 8], 1 -> 0 [2, 5, 8], 2 -> 1 [2, 5, 8], 3 -> 2 [2, 5, 8], 4 -> 3 [2, 5, 8], 5 -> 4 [2, 5, 8], 6 -> 5 [2, 5, 8], 7 -> 6 [2, 5, 8], 8 -> 7 [2, 5, 8]}
    coll.step "phase 1" copy {0 -> 3 [2, 3, 4], 1 -> 4 [2, 3, 4], 2 -> 5 [2, 3, 4], 3 -> 6 [2, 3, 4], 4 -> 7 [2, 3, 4], 5 -> 8 [2, 3, 4], 6 -> 0 [2, 3, 4], 7 -> 1 [2, 3, 4], 8 -> 2 [2, 3, 4]}
    coll.step "phase 1" copy {0 -> 6 [5, 6, 7], 1 -> 7 [5, 6, 7], 2 -> 8 [5, 6, 7], 3 -> 0 [5, 6, 7], 4 -> 1 [5, 6, 7], 5 -> 2 [5, 6, 7], 6 -> 3 [5, 6, 7], 7 -> 4 [5, 6, 7], 8 -> 5 [5, 6, 7]}
  }
}
