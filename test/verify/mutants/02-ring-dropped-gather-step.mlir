// Mutant of the ring (P = 4): the last all-gather step is gone.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 2, part 0: rank 2's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {})
// CHECK: ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'ring': P = 4, after the last step, rank 2, part 0: rank 2's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'ring' for P = 4: after the last step, rank 0 ends without part 2 (given away at step 2)

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "reduce-scatter" combine {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
    coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]}
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
  }
}

