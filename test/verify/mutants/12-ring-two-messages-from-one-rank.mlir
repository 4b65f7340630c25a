// Mutant of the ring (P = 4): rank 0 sends twice in step 1.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 4, step 1, rank 0: rank 0 sends two messages in one step (to 1 and 3) (expected one message from rank 0, found 2)
// CHECK: ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: matching violated in 'ring': P = 4, step 1, rank 0: rank 0 sends two messages in one step (to 1 and 3) (expected one message from rank 0, found 2)
// SIM: error: matching violated in 'ring' for P = 4: step 1, rank 0 sends two messages in one step (to 1 and 3)

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "reduce-scatter" combine {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 0 -> 3 [2]}
    coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]}
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "all-gather" copy {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
  }
}

