// Mutant of a reduce_scatter ring as group moves (P = 4): the last step is missing, so the sums end on the wrong ranks.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: placement 0 (rank 0's part 0) ends without the vector q_1 (expected vectors {0, 1, 2, 3}, each once, found vectors {0})
// CHECK: rs_ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'rs_ring': P = 4, after the last step, rank 0, part 0: placement 0 (rank 0's part 0) ends without the vector q_1 (expected vectors {0, 1, 2, 3}, each once, found vectors {0})
// SIM: error: coverage violated in 'rs_ring' for P = 4: after the last step, rank 0 ends with part 0 = {0}, missing {1, 2, 3}

module {
  coll.program @rs_ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<reduce_scatter>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [1, 2) -> [2, 3)
    coll.step "reduce-scatter" combine move [2, 3) -> [3, 4)
  }
}
