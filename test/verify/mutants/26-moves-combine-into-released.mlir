// Mutant of the group-move ring (P = 4): a ring move combines into placement 0, handed on in step 0.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 4, step 1, rank 0, part 0: placement 0 (rank 0's part 0) is combined into at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// CHECK: ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: ownership violated in 'ring': P = 4, step 1, rank 0, part 0: placement 0 (rank 0's part 0) is combined into at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// SIM: error: ownership violated in 'ring' for P = 4: step 1, rank 3 combines into part 3, which it gave away at step 0

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [0, 1) -> [1, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "reduce-scatter" combine move [2, 3) -> [3, 4)
    coll.step "all-gather" copy move [3, 4) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [1, 2) -> [2, 3)
  }
}
