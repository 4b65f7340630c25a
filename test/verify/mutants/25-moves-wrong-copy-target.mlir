// Mutant of the group-move butterfly (P = 5): the first copy goes to placement 2 instead of 1.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 5, rank 1, part 0: placement 1 (rank 1's part 0) is sent at step 5, but it was handed on at step 2 (expected a block the rank holds, found a block given away at step 2)
// CHECK: butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'butterfly': P = 5, step 5, rank 1, part 0: placement 1 (rank 1's part 0) is sent at step 5, but it was handed on at step 2 (expected a block the rank holds, found a block given away at step 2)
// SIM: error: ownership violated in 'butterfly' for P = 5: step 5, rank 0 sends part 4, which it gave away at step 2

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [3, 5) -> [0, 2)
    coll.step "reduce-scatter" combine move [2, 3) -> [0, 1)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [2, 3)
    coll.step "all-gather" copy move [0, 1) -> [2, 3)
    coll.step "all-gather" copy move [0, 2) -> [3, 5)
  }
}
