// Mutant of the group-move butterfly (P = 5): the first move takes placements [2, 4) instead of [3, 5).
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 1, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// CHECK: butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'butterfly': P = 5, step 1, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// SIM: error: ownership violated in 'butterfly' for P = 5: step 1, rank 0 sends part 3, which it gave away at step 0

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [0, 2)
    coll.step "reduce-scatter" combine move [2, 3) -> [0, 1)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 1) -> [2, 3)
    coll.step "all-gather" copy move [0, 2) -> [3, 5)
  }
}
