// Mutant of the butterfly (P = 5): in step 3 rank 1 sends to rank 0 instead of receiving from it.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 5, step 3, rank 0: rank 0 receives two messages in one step (from 1 and 4) (expected one message to rank 0, found 2)
// CHECK: butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: matching violated in 'butterfly': P = 5, step 3, rank 0: rank 0 receives two messages in one step (from 1 and 4) (expected one message to rank 0, found 2)
// SIM: error: matching violated in 'butterfly' for P = 5: step 3, rank 1 sends two messages in one step (to 0 and 2)

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 2 [2, 1], 1 -> 3 [3, 2], 2 -> 4 [4, 3], 3 -> 0 [0, 4], 4 -> 1 [1, 0]}
    coll.step "reduce-scatter" combine {0 -> 3 [3], 1 -> 4 [4], 2 -> 0 [0], 3 -> 1 [1], 4 -> 2 [2]}
    coll.step "reduce-scatter" combine {0 -> 4 [4], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2], 4 -> 3 [3]}
    coll.step "all-gather" copy {1 -> 0 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 4 [3], 4 -> 0 [4]}
    coll.step "all-gather" copy {0 -> 2 [0], 1 -> 3 [1], 2 -> 4 [2], 3 -> 0 [3], 4 -> 1 [4]}
    coll.step "all-gather" copy {0 -> 3 [0, 4], 1 -> 4 [1, 0], 2 -> 0 [2, 1], 3 -> 1 [3, 2], 4 -> 2 [4, 3]}
  }
}

