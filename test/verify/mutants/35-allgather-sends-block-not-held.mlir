// Mutant of an allgather ring as group moves (P = 4): the second step forwards placement 2 before anyone has it.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 4, step 1, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 1, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// CHECK: ag_ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: ownership violated in 'ag_ring': P = 4, step 1, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 1, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// SIM: error: ownership violated in 'ag_ring' for P = 4: step 1, rank 0 sends part 2, which it does not hold (it never received it)

module {
  coll.program @ag_ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allgather>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [2, 3) -> [3, 4)
    coll.step "all-gather" copy move [2, 3) -> [3, 4)
  }
}
