// Mutant: The Klein group's table with rows 0 and 1 swapped: element 0 is no
// longer the identity, which the group level assumes (placement 0 puts part b
// on rank b). Once proven; now the op verifier rejects the table, in collc
// verify and the simulation alike (exit 2).
// Expected: rejected as input (exit 2), by the verifier and the simulation.
// RUN: collc verify %s 2> %t; test $? -eq 2
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s
// CHECK: error: 'coll.program' op group_elements row 0 is not the identity: it sends rank 0 to 1

module {
  coll.program @klein attributes {group = #coll.group<generated>, group_elements = array<i64: 1, 0, 3, 2, 0, 1, 2, 3, 2, 3, 0, 1, 3, 2, 1, 0>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [0, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [2, 4)
  }
}
