// Mutant of a binomial reduce to rank 0 (P = 4): the last combine goes to rank 2, not the root 0.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: rank 0's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {})
// CHECK: reduce: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'reduce': P = 4, after the last step, rank 0, part 0: rank 0's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'reduce' for P = 4: after the last step, rank 0 ends without part 0 (given away at step 1)

module {
  coll.program @reduce attributes {kind = #coll.kind<reduce>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "binomial" combine {1 -> 0 [0], 3 -> 2 [0]}
    coll.step "binomial" combine {0 -> 2 [0]}
  }
}
