// Mutant of the butterfly reduce_scatter (P = 5): the last combine step runs twice.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 3, rank 1, part 0: rank 1's part 0 is sent at step 3, but it was handed on at step 2 (expected a block the rank holds, found a block given away at step 2)
// CHECK: rs_butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'rs_butterfly': P = 5, step 3, rank 1, part 0: rank 1's part 0 is sent at step 3, but it was handed on at step 2 (expected a block the rank holds, found a block given away at step 2)
// SIM: error: ownership violated in 'rs_butterfly' for P = 5: step 3, rank 0 sends part 4, which it gave away at step 2

module {
  coll.program @rs_butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<reduce_scatter>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 2 [2, 1], 1 -> 3 [3, 2], 2 -> 4 [4, 3], 3 -> 0 [0, 4], 4 -> 1 [1, 0]}
    coll.step "reduce-scatter" combine {0 -> 3 [3], 1 -> 4 [4], 2 -> 0 [0], 3 -> 1 [1], 4 -> 2 [2]}
    coll.step "reduce-scatter" combine {0 -> 4 [4], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2], 4 -> 3 [3]}
    coll.step "reduce-scatter" combine {0 -> 4 [4], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2], 4 -> 3 [3]}
  }
}
