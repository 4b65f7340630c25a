// Mutant: An allgather on xor(8) whose second copy is the unaligned range [0,
// 2) -> [1, 3): what runs sends both vectors along t_1 t_0^-1 = t_1, so vector
// 1 lands on placement t_1 t_1 = t_0, not t_2, and the next step sends
// placement 2, which never received a value. The group level once moved vector
// 1 to placement 2 and proved ownership.
// Expected: ownership violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 8, step 2, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 2, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// CHECK: allgather: VIOLATED for P in {8} ({{.*}} s)
// PASS: error: ownership violated in 'allgather': P = 8, step 2, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 2, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// SIM: error: ownership violated in 'allgather' for P = 8: step 2, rank 0 sends part 2, which it does not hold (it never received it)

module {
  coll.program @allgather attributes {group = #coll.group<xor>, kind = #coll.kind<allgather>, num_parts = 8 : i64, num_ranks = 8 : i64, op = #coll.op<sum>} {
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [1, 3)
    coll.step "all-gather" copy move [0, 3) -> [4, 7)
  }
}
