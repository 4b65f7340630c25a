// Mutant of the ring (P = 4): the second reduce-scatter step is gone.
// Expected: ownership and coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 4, step 3, rank 1, part 0: rank 1's part 0 = {0, 1} is overwritten with {2, 3} from rank 0's part 0, destroying the last copy of the rank 0 contribution (expected a block still needed is not overwritten, found the last copy of {0, 1} overwritten)
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: rank 0's part 0 ends without the rank 0 contribution (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {2, 3})
// CHECK: ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: ownership violated in 'ring': P = 4, step 3, rank 1, part 0: rank 1's part 0 = {0, 1} is overwritten with {2, 3} from rank 0's part 0, destroying the last copy of the rank 0 contribution (expected a block still needed is not overwritten, found the last copy of {0, 1} overwritten)
// SIM: error: ownership violated in 'ring' for P = 4: step 3, rank 1 overwrites part 0 = {0, 1} with {2, 3} from rank 0, losing the only copy of the contribution of rank 0

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]}
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "all-gather" copy {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
  }
}

