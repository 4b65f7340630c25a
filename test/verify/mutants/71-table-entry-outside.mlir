// Mutant: Row 3 sends rank 3 to 4, outside the ranks (once read out of
// bounds).
// Expected: rejected as input (exit 2), by the verifier and the simulation.
// RUN: collc verify %s 2> %t; test $? -eq 2
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s
// CHECK: error: 'coll.program' op group_elements row 3 sends rank 3 to 4, outside [0, 4)

module {
  coll.program @outside attributes {group = #coll.group<generated>, group_elements = array<i64: 0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 4>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [0, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [2, 4)
  }
}
