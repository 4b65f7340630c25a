// Mutant of a rank-ordered chain (P = 4): the ring with a non-commutative operator.
// Expected: operator-legality violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-operator-legality 2>&1 | FileCheck %s --check-prefix=PASS
// The dataflow simulation does not check operator legality; it accepts the program:
// RUN: coll-opt %s --coll-check-dataflow > /dev/null
// CHECK: operator-legality violated: P = 4, step 0, rank 0, part 3: rank 0's part 3 combines {0} with {3} from rank 3, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {3})
// CHECK: ring: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: operator-legality violated in 'ring': P = 4, step 0, rank 0, part 3: rank 0's part 3 combines {0} with {3} from rank 3, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {3})

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, noncommutative, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "reduce-scatter" combine {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
    coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]}
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]}
    coll.step "all-gather" copy {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]}
  }
}

