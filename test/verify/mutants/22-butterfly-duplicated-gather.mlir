// Mutant of the butterfly (P = 5): the first all-gather step runs twice and the second one is gone.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 5, after the last step, rank 2, part 0: rank 2's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3, 4}, each once, found contributions of ranks {})
// CHECK: butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: coverage violated in 'butterfly': P = 5, after the last step, rank 2, part 0: rank 2's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3, 4}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'butterfly' for P = 5: after the last step, rank 0 ends without part 3 (given away at step 1)

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 2 [2, 1], 1 -> 3 [3, 2], 2 -> 4 [4, 3], 3 -> 0 [0, 4], 4 -> 1 [1, 0]}
    coll.step "reduce-scatter" combine {0 -> 3 [3], 1 -> 4 [4], 2 -> 0 [0], 3 -> 1 [1], 4 -> 2 [2]}
    coll.step "reduce-scatter" combine {0 -> 4 [4], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2], 4 -> 3 [3]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 4 [3], 4 -> 0 [4]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 4 [3], 4 -> 0 [4]}
    coll.step "all-gather" copy {0 -> 3 [0, 4], 1 -> 4 [1, 0], 2 -> 0 [2, 1], 3 -> 1 [3, 2], 4 -> 2 [4, 3]}
  }
}

