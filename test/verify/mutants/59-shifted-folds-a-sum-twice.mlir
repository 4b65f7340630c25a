// Mutant of the shifted butterfly (butterfly(r = 1), P = 7): an extra fold combines the sum at placement 1 into the sum at placement 0 (different vectors with overlapping sets).
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 7, after the last step, rank 0, part 0: the vector q_0 reaches placement 0 (rank 0's part 0) 2 times (expected vectors {0, 1, 2, 3, 4, 5, 6}, each once, found vectors {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6})
// CHECK: butterfly_r1: VIOLATED for P in {7} ({{.*}} s)
// PASS: error: coverage violated in 'butterfly_r1': P = 7, after the last step, rank 0, part 0: the vector q_0 reaches placement 0 (rank 0's part 0) 2 times (expected vectors {0, 1, 2, 3, 4, 5, 6}, each once, found vectors {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6})
// SIM: error: coverage violated in 'butterfly_r1' for P = 7: step 5, the contribution of rank 0 to part 0 reaches rank 0 twice (it holds {0, 1, 2, 3, 4, 5, 6} and receives {0, 1, 2, 3, 4, 5, 6} from rank 1)

module {
  coll.program @butterfly_r1 attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
    coll.step "local" copy vectors {3 -> 10}
    coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 0 -> 10}
    coll.step "local" copy vectors {1 -> 8}
    coll.step "reduce-scatter" fold vectors {2 -> 0, 3 -> 1, 10 -> 8, 4 -> 2}
    coll.step "reduce-scatter" fold vectors {1 -> 0, 2 -> 8}
    coll.step "reduce-scatter" fold vectors {8 -> 0}
    coll.step "local" copy vectors {8 -> 1}
    coll.step "all-gather" copy vectors {0 -> 2, 1 -> 3}
    coll.step "all-gather" copy vectors {0 -> 4, 1 -> 5, 2 -> 6}
  }
}
