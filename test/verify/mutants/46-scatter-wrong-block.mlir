// Mutant of the hierarchical scatter (P = 6): the root sends rank 1 the block of rank 2.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 6, after the last step, rank 1, part 1: rank 1's part 1 is empty after the last step (it never receives a value) (expected contributions of ranks {0}, each once, found contributions of ranks {})
// CHECK: scatter_tree: VIOLATED for P in {6} ({{.*}} s)
// PASS: error: coverage violated in 'scatter_tree': P = 6, after the last step, rank 1, part 1: rank 1's part 1 is empty after the last step (it never receives a value) (expected contributions of ranks {0}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'scatter_tree' for P = 6: after the last step, rank 1 ends without part 1 (it never received it)

module {
  coll.program @scatter_tree attributes {kind = #coll.kind<scatter>, num_parts = 6 : i64, num_ranks = 6 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "scatter" copy {0 -> 4 [4, 5]}
    coll.step "scatter" copy {0 -> 2 [2, 3]}
    coll.step "scatter" copy {0 -> 1 [2], 2 -> 3 [3], 4 -> 5 [5]}
  }
}
