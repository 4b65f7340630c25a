// Mutant of the butterfly (P = 5): the butterfly (P = 5) with a non-commutative operator.
// Expected: operator-legality violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-operator-legality 2>&1 | FileCheck %s --check-prefix=PASS
// The dataflow simulation does not check operator legality; it accepts the program:
// RUN: coll-opt %s --coll-check-dataflow > /dev/null
// CHECK: operator-legality violated: P = 5, step 0, rank 0, part 0: rank 0's part 0 combines {0} with {3} from rank 3, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {3})
// CHECK: butterfly: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: operator-legality violated in 'butterfly': P = 5, step 0, rank 0, part 0: rank 0's part 0 combines {0} with {3} from rank 3, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {3})

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, noncommutative, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 2 [2, 1], 1 -> 3 [3, 2], 2 -> 4 [4, 3], 3 -> 0 [0, 4], 4 -> 1 [1, 0]}
    coll.step "reduce-scatter" combine {0 -> 3 [3], 1 -> 4 [4], 2 -> 0 [0], 3 -> 1 [1], 4 -> 2 [2]}
    coll.step "reduce-scatter" combine {0 -> 4 [4], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2], 4 -> 3 [3]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 4 [3], 4 -> 0 [4]}
    coll.step "all-gather" copy {0 -> 2 [0], 1 -> 3 [1], 2 -> 4 [2], 3 -> 0 [3], 4 -> 1 [4]}
    coll.step "all-gather" copy {0 -> 3 [0, 4], 1 -> 4 [1, 0], 2 -> 0 [2, 1], 3 -> 1 [3, 2], 4 -> 2 [4, 3]}
  }
}

