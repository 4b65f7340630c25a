// Mutant of the shifted butterfly (butterfly(r = 1), P = 7): one move of the first fold goes to the wrong placement (0 -> 9 instead of 0 -> 10), so its step is two permutations.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 7, step 1, rank 0: rank 0 sends to ranks 2 and 3: the step's moves are not one permutation
// CHECK: butterfly_r1: VIOLATED for P in {7} ({{.*}} s)
// PASS: error: matching violated in 'butterfly_r1': P = 7, step 1, rank 0: rank 0 sends to ranks 2 and 3: the step's moves are not one permutation
// SIM: error: matching violated in 'butterfly_r1' for P = 7: step 1, rank 0 sends two messages in one step (to 3 and 2)

module {
  coll.program @butterfly_r1 attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
    coll.step "local" copy vectors {3 -> 10}
    coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 0 -> 9}
    coll.step "local" copy vectors {1 -> 8}
    coll.step "reduce-scatter" fold vectors {2 -> 0, 3 -> 1, 10 -> 8, 4 -> 2}
    coll.step "reduce-scatter" fold vectors {1 -> 0, 2 -> 8}
    coll.step "local" copy vectors {8 -> 1}
    coll.step "all-gather" copy vectors {0 -> 2, 1 -> 3}
    coll.step "all-gather" copy vectors {0 -> 4, 1 -> 5, 2 -> 6}
  }
}
