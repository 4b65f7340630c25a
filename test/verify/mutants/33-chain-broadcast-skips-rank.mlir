// Mutant of a rank-ordered chain (P = 4): the broadcast forgets rank 2.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 2, part 0: rank 2's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {})
// CHECK: chain: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'chain': P = 4, after the last step, rank 2, part 0: rank 2's part 0 is empty after the last step (it was handed on by a combine and never received back) (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'chain' for P = 4: after the last step, rank 2 ends without part 0 (given away at step 2)

module {
  coll.program @chain attributes {kind = #coll.kind<allreduce>, noncommutative, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce" combine {0 -> 1 [0]}
    coll.step "reduce" combine {1 -> 2 [0]}
    coll.step "reduce" combine {2 -> 3 [0]}
    coll.step "broadcast" copy {3 -> 0 [0]}
    coll.step "broadcast" copy {0 -> 1 [0]}
  }
}
