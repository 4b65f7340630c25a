// Mutant of the ring (P = 4): rank 3 does not send in step 0.
// Expected: ownership and coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 4, step 3, rank 3, part 3: rank 3's part 3 = {3} is overwritten with {0, 1, 2} from rank 2's part 3, destroying the last copy of the rank 3 contribution (expected a block still needed is not overwritten, found the last copy of {3} overwritten)
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 3: rank 0's part 3 ends without the rank 3 contribution (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {0, 1, 2})
// CHECK: ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: ownership violated in 'ring': P = 4, step 3, rank 3, part 3: rank 3's part 3 = {3} is overwritten with {0, 1, 2} from rank 2's part 3, destroying the last copy of the rank 3 contribution (expected a block still needed is not overwritten, found the last copy of {3} overwritten)
// SIM: error: ownership violated in 'ring' for P = 4: step 3, rank 3 overwrites part 3 = {3} with {0, 1, 2} from rank 2, losing the only copy of the contribution of rank 3

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2]}
    coll.step "reduce-scatter" combine {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
    coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]}
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "all-gather" copy {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
  }
}

