// Mutant of the product butterfly (cyclic(2) * cyclic(3), P = 6): rows 4 and
// 5 of the element table are swapped, so the enumeration no longer lets the
// first halving move its three vectors by one element.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 6, step 0, rank 0: rank 0 sends to ranks 3 and 5: the step's moves are not one permutation
// CHECK: product_butterfly: VIOLATED for P in {6} ({{.*}} s)
// PASS: error: matching violated in 'product_butterfly': P = 6, step 0, rank 0: rank 0 sends to ranks 3 and 5: the step's moves are not one permutation
// SIM: error: matching violated in 'product_butterfly' for P = 6: step 0, rank 0 sends two messages in one step (to 3 and 5)

module {
  coll.program @product_butterfly attributes {group = #coll.group<generated>, group_elements = array<i64: 0, 1, 2, 3, 4, 5, 1, 2, 0, 4, 5, 3, 2, 0, 1, 5, 3, 4, 3, 4, 5, 0, 1, 2, 5, 3, 4, 2, 0, 1, 4, 5, 3, 1, 2, 0>, kind = #coll.kind<allreduce>, num_parts = 6 : i64, num_ranks = 6 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine vectors {3 -> 0, 4 -> 1, 5 -> 2}
    coll.step "reduce-scatter" combine vectors {2 -> 0}
    coll.step "reduce-scatter" combine vectors {1 -> 0}
    coll.step "all-gather" copy vectors {0 -> 1}
    coll.step "all-gather" copy vectors {0 -> 2}
    coll.step "all-gather" copy vectors {0 -> 3, 1 -> 4, 2 -> 5}
  }
}

