// Mutant of recursive doubling (P = 4): recursive doubling exchanging with the same partner twice.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: the rank 0 contribution reaches rank 0's part 0 2 times (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {0, 0, 1, 1})
// CHECK: doubling: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'doubling': P = 4, after the last step, rank 0, part 0: the rank 0 contribution reaches rank 0's part 0 2 times (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {0, 0, 1, 1})
// SIM: error: coverage violated in 'doubling' for P = 4: step 1, the contribution of rank 0 to part 0 reaches rank 0 twice (it holds {0, 1} and receives {0, 1} from rank 1)

module {
  coll.program @doubling attributes {kind = #coll.kind<allreduce>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "exchange" combine {0 -> 1 [0], 1 -> 0 [0], 2 -> 3 [0], 3 -> 2 [0]}
    coll.step "exchange" combine {0 -> 1 [0], 1 -> 0 [0], 2 -> 3 [0], 3 -> 2 [0]}
  }
}
