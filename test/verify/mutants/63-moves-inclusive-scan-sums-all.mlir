// Mutant: Recursive halving on cyclic(4) as group moves under kind
// inclusive_scan: rank 0 ends with the sum of all ranks instead of its own
// value. Once proven as an allreduce.
// Expected: coverage violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: rank 0's part 0 ends with the rank 1 contribution, which it should not have (expected contributions of ranks {0}, each once, found contributions of ranks {0, 1, 2, 3})
// CHECK: scan: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'scan': P = 4, after the last step, rank 0, part 0: rank 0's part 0 ends with the rank 1 contribution, which it should not have (expected contributions of ranks {0}, each once, found contributions of ranks {0, 1, 2, 3})
// SIM: error: coverage violated in 'scan' for P = 4: after the last step, rank 0 ends with part 0 = {0, 1, 2, 3}, with contributions it should not have: {1, 2, 3}

module {
  coll.program @scan attributes {group = #coll.group<cyclic>, kind = #coll.kind<inclusive_scan>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [0, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [2, 4)
  }
}
