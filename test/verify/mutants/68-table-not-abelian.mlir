// Mutant: S3 acting on itself (P = 6): a regular permutation group, but not
// abelian, which the group action of design.md 3.1 needs.
// Expected: rejected as input (exit 2), by the verifier and the simulation.
// RUN: collc verify %s 2> %t; test $? -eq 2
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s
// CHECK: error: 'coll.program' op group_elements is not abelian: row 1 = (0 1)(2 4)(3 5) and row 2 = (0 2)(1 3)(4 5) do not commute (rank 0 goes to 4 one way and to 3 the other)

module {
  coll.program @s3 attributes {group = #coll.group<generated>, group_elements = array<i64: 0, 1, 2, 3, 4, 5, 1, 0, 4, 5, 2, 3, 2, 3, 0, 1, 5, 4, 3, 2, 5, 4, 0, 1, 4, 5, 1, 0, 3, 2, 5, 4, 3, 2, 1, 0>, kind = #coll.kind<allreduce>, num_parts = 6 : i64, num_ranks = 6 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [1, 2) -> [2, 3)
  }
}
