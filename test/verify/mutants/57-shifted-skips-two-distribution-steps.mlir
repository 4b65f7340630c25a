// Mutant of the shifted butterfly (butterfly(r = 1), P = 7): the last distribution step is gone (r = 1 skips one, not two).
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 7, after the last step, rank 4, part 0: placement 4 (rank 4's part 0) ends without the vector q_0 (expected vectors {0, 1, 2, 3, 4, 5, 6}, each once, found vectors {4})
// CHECK: butterfly_r1: VIOLATED for P in {7} ({{.*}} s)
// PASS: error: coverage violated in 'butterfly_r1': P = 7, after the last step, rank 4, part 0: placement 4 (rank 4's part 0) ends without the vector q_0 (expected vectors {0, 1, 2, 3, 4, 5, 6}, each once, found vectors {4})
// SIM: error: coverage violated in 'butterfly_r1' for P = 7: after the last step, rank 0 ends with part 1 = {0}, missing {1, 2, 3, 4, 5, 6}

module {
  coll.program @butterfly_r1 attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
    coll.step "local" copy vectors {3 -> 10}
    coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 0 -> 10}
    coll.step "local" copy vectors {1 -> 8}
    coll.step "reduce-scatter" fold vectors {2 -> 0, 3 -> 1, 10 -> 8, 4 -> 2}
    coll.step "reduce-scatter" fold vectors {1 -> 0, 2 -> 8}
    coll.step "local" copy vectors {8 -> 1}
    coll.step "all-gather" copy vectors {0 -> 2, 1 -> 3}
  }
}
