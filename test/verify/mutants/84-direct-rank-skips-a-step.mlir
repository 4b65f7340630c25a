// Mutant: A direct alltoall (P = 5) in which rank 2 does not send in step 1: the
// step is a block of four senders, not P, so the part's path keeps that
// step as a term.
// Expected: coverage and ownership violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 1, rank 2, part 2: rank 2's part 2 = {2} is overwritten with {0} from rank 0's part 2, destroying the last copy of the rank 2 contribution (expected a block still needed is not overwritten, found the last copy of {2} overwritten)
// CHECK: coverage violated: P = 5, after the last step, rank 4, part 2: rank 4's part 2 ends without the rank 2 contribution (expected contributions of ranks {2}, each once, found contributions of ranks {4})
// CHECK: direct: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'direct': P = 5, step 1, rank 2, part 2: rank 2's part 2 = {2} is overwritten with {0} from rank 0's part 2, destroying the last copy of the rank 2 contribution (expected a block still needed is not overwritten, found the last copy of {2} overwritten)
// SIM: error: ownership violated in 'direct' for P = 5: step 1, rank 2 overwrites part 2 = {2} with {0} from rank 0, losing the only copy of the contribution of rank 2

module {
  coll.program @direct attributes {kind = #coll.kind<alltoall>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [1], 1 -> 2 [1], 2 -> 3 [1], 3 -> 4 [1], 4 -> 0 [1]}
    coll.step "phase 0" copy {0 -> 2 [2], 1 -> 3 [2], 3 -> 0 [2], 4 -> 1 [2]}
    coll.step "phase 0" copy {0 -> 3 [3], 1 -> 4 [3], 2 -> 0 [3], 3 -> 1 [3], 4 -> 2 [3]}
    coll.step "phase 0" copy {0 -> 4 [4], 1 -> 0 [4], 2 -> 1 [4], 3 -> 2 [4], 4 -> 3 [4]}
  }
}
