// Mutant: Vector moves of recursive halving on the Klein group (P = 4) under
// kind alltoall: every block ends as the sum of all ranks. Once proven as an
// allreduce.
// Expected: coverage violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: rank 0's part 0 ends with the rank 1 contribution, which it should not have (expected contributions of ranks {0}, each once, found contributions of ranks {0, 1, 2, 3})
// CHECK: klein_alltoall: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'klein_alltoall': P = 4, after the last step, rank 0, part 0: rank 0's part 0 ends with the rank 1 contribution, which it should not have (expected contributions of ranks {0}, each once, found contributions of ranks {0, 1, 2, 3})
// SIM: error: coverage violated in 'klein_alltoall' for P = 4: after the last step, rank 0 ends with part 0 = {0, 1, 2, 3}, with contributions it should not have: {1, 2, 3}

module {
  coll.program @klein_alltoall attributes {group = #coll.group<generated>, group_elements = array<i64: 0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0>, kind = #coll.kind<alltoall>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine vectors {2 -> 0, 3 -> 1}
    coll.step "reduce-scatter" combine vectors {1 -> 0}
    coll.step "all-gather" copy vectors {0 -> 1}
    coll.step "all-gather" copy vectors {0 -> 2, 1 -> 3}
  }
}
