// Mutant of the shifted butterfly (butterfly(r = 1), P = 7): a fifth move of the same permutation lands in slot 0, which already receives.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 7, step 1, rank 0: two vectors arrive in placement 0 (rank 0's part 0) in one step
// CHECK: butterfly_r1: VIOLATED for P in {7} ({{.*}} s)
// PASS: error: matching violated in 'butterfly_r1': P = 7, step 1, rank 0: two vectors arrive in placement 0 (rank 0's part 0) in one step
// SIM: error: matching violated in 'butterfly_r1' for P = 7: step 1, rank 3 takes two parts of rank 0's message as its part 3

module {
  coll.program @butterfly_r1 attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
    coll.step "local" copy vectors {3 -> 10}
    coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 0 -> 10, 11 -> 0}
    coll.step "local" copy vectors {1 -> 8}
    coll.step "reduce-scatter" fold vectors {2 -> 0, 3 -> 1, 10 -> 8, 4 -> 2}
    coll.step "reduce-scatter" fold vectors {1 -> 0, 2 -> 8}
    coll.step "local" copy vectors {8 -> 1}
    coll.step "all-gather" copy vectors {0 -> 2, 1 -> 3}
    coll.step "all-gather" copy vectors {0 -> 4, 1 -> 5, 2 -> 6}
  }
}
