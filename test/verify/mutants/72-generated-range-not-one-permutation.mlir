// Mutant: cyclic(4) given as a table in the order id, +1, +3, +2: the range
// move [2, 4) -> [0, 2) moves placement 2 by +1 but placement 3 by -1, while a
// range move sends every vector along its first one's permutation. Range moves
// on generated groups once crashed the matching query.
// Expected: coverage violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 0: placement 0 (rank 0's part 0) ends without the vector q_3 (expected vectors {0, 1, 2, 3}, each once, found vectors {0, 1, 2})
// CHECK: cyclic_as_table: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'cyclic_as_table': P = 4, after the last step, rank 0, part 0: placement 0 (rank 0's part 0) ends without the vector q_3 (expected vectors {0, 1, 2, 3}, each once, found vectors {0, 1, 2})
// SIM: error: ownership violated in 'cyclic_as_table' for P = 4: step 3, rank 3 overwrites part 0 = {2, 3} with {0, 1, 3} from rank 0, losing the only copy of the contribution of rank 2

module {
  coll.program @cyclic_as_table attributes {group = #coll.group<generated>, group_elements = array<i64: 0, 1, 2, 3, 1, 2, 3, 0, 3, 0, 1, 2, 2, 3, 0, 1>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [0, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [2, 4)
  }
}
