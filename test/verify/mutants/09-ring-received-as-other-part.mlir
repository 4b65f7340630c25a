// Mutant of the ring (P = 4): rank 1 files part 0 as its part 3.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: rank 0's part 0 ends without the rank 0 contribution (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {1, 2, 3})
// CHECK: ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'ring': P = 4, after the last step, rank 0, part 0: rank 0's part 0 ends without the rank 0 contribution (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {1, 2, 3})
// SIM: error: coverage violated in 'ring' for P = 4: after the last step, rank 0 ends with part 0 = {1, 2, 3}, missing {0}

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [0] into [3], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "reduce-scatter" combine {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
    coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]}
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "all-gather" copy {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
  }
}

