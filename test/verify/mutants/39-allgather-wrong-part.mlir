// Mutant of the butterfly allgather (P = 5): rank 0 sends part 1, which it does not have, in step 0.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 0, rank 0, part 1: rank 0's part 1 is sent at step 0, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// CHECK: ag_butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'ag_butterfly': P = 5, step 0, rank 0, part 1: rank 0's part 1 is sent at step 0, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// SIM: error: ownership violated in 'ag_butterfly' for P = 5: step 0, rank 0 sends part 1, which it does not hold (it never received it)

module {
  coll.program @ag_butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allgather>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [1], 2 -> 3 [2], 3 -> 4 [3], 4 -> 0 [4]}
    coll.step "all-gather" copy {0 -> 2 [0], 1 -> 3 [1], 2 -> 4 [2], 3 -> 0 [3], 4 -> 1 [4]}
    coll.step "all-gather" copy {0 -> 3 [0, 4], 1 -> 4 [1, 0], 2 -> 0 [2, 1], 3 -> 1 [3, 2], 4 -> 2 [4, 3]}
  }
}
