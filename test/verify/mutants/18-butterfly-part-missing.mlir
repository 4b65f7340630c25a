// Mutant of the butterfly (P = 5): rank 0 sends one of its two parts in step 0.
// Expected: ownership and coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 5, rank 0, part 1: rank 0's part 1 = {0} is overwritten with {1, 2, 3, 4} from rank 2's part 1, destroying the last copy of the rank 0 contribution (expected a block still needed is not overwritten, found the last copy of {0} overwritten)
// CHECK: coverage violated: P = 5, after the last step, rank 0, part 1: rank 0's part 1 ends without the rank 0 contribution (expected contributions of ranks {0, 1, 2, 3, 4}, each once, found contributions of ranks {1, 2, 3, 4})
// CHECK: butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'butterfly': P = 5, step 5, rank 0, part 1: rank 0's part 1 = {0} is overwritten with {1, 2, 3, 4} from rank 2's part 1, destroying the last copy of the rank 0 contribution (expected a block still needed is not overwritten, found the last copy of {0} overwritten)
// SIM: error: ownership violated in 'butterfly' for P = 5: step 5, rank 0 overwrites part 1 = {0} with {1, 2, 3, 4} from rank 2, losing the only copy of the contribution of rank 0

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 2 [2], 1 -> 3 [3, 2], 2 -> 4 [4, 3], 3 -> 0 [0, 4], 4 -> 1 [1, 0]}
    coll.step "reduce-scatter" combine {0 -> 3 [3], 1 -> 4 [4], 2 -> 0 [0], 3 -> 1 [1], 4 -> 2 [2]}
    coll.step "reduce-scatter" combine {0 -> 4 [4], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2], 4 -> 3 [3]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 4 [3], 4 -> 0 [4]}
    coll.step "all-gather" copy {0 -> 2 [0], 1 -> 3 [1], 2 -> 4 [2], 3 -> 0 [3], 4 -> 1 [4]}
    coll.step "all-gather" copy {0 -> 3 [0, 4], 1 -> 4 [1, 0], 2 -> 0 [2, 1], 3 -> 1 [3, 2], 4 -> 2 [4, 3]}
  }
}

