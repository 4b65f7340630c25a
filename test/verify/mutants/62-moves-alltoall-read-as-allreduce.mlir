// Mutant: The ring allreduce's group moves (P = 3) under kind alltoall: every
// block ends as the sum of all ranks. Once proven as an allreduce; group moves
// of kinds other than allreduce, barrier, reduce_scatter and allgather are now
// proven on the rank level, where the kind says what each rank must end with.
// Expected: coverage violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 3, after the last step, rank 0, part 0: rank 0's part 0 ends with the rank 1 contribution, which it should not have (expected contributions of ranks {0}, each once, found contributions of ranks {0, 1, 2})
// CHECK: ring: VIOLATED for P in {3} ({{.*}} s)
// PASS: error: coverage violated in 'ring': P = 3, after the last step, rank 0, part 0: rank 0's part 0 ends with the rank 1 contribution, which it should not have (expected contributions of ranks {0}, each once, found contributions of ranks {0, 1, 2})
// SIM: error: coverage violated in 'ring' for P = 3: after the last step, rank 0 ends with part 0 = {0, 1, 2}, with contributions it should not have: {1, 2}

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<alltoall>, num_parts = 3 : i64, num_ranks = 3 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [0, 1) -> [1, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [2, 3)
    coll.step "all-gather" copy move [2, 3) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
  }
}
