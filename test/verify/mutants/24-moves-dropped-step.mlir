// Mutant of the group-move butterfly (P = 5): the second reduction move is gone.
// Expected: ownership and coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 3, rank 2, part 0: placement 2 (rank 2's part 0) = {2} is overwritten with {0, 1, 3, 4} from placement 0 (rank 0's part 0), destroying the last copy of the vector q_2 (expected a block still needed is not overwritten, found the last copy of {2} overwritten)
// CHECK: coverage violated: P = 5, after the last step, rank 0, part 0: placement 0 (rank 0's part 0) ends without the vector q_2 (expected vectors {0, 1, 2, 3, 4}, each once, found vectors {0, 1, 3, 4})
// CHECK: butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'butterfly': P = 5, step 3, rank 2, part 0: placement 2 (rank 2's part 0) = {2} is overwritten with {0, 1, 3, 4} from placement 0 (rank 0's part 0), destroying the last copy of the vector q_2 (expected a block still needed is not overwritten, found the last copy of {2} overwritten)
// SIM: error: ownership violated in 'butterfly' for P = 5: step 3, rank 2 overwrites part 0 = {2} with {0, 1, 3, 4} from rank 0, losing the only copy of the contribution of rank 2

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [3, 5) -> [0, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 1) -> [2, 3)
    coll.step "all-gather" copy move [0, 2) -> [3, 5)
  }
}
