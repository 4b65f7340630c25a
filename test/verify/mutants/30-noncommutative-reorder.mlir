// Mutant of a rank-ordered chain (P = 4): a rank-ordered chain with its first two combines reordered.
// Expected: operator-legality violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-operator-legality 2>&1 | FileCheck %s --check-prefix=PASS
// The dataflow simulation does not check operator legality; it accepts the program:
// RUN: coll-opt %s --coll-check-dataflow > /dev/null
// CHECK: operator-legality violated: P = 4, step 0, rank 0, part 0: rank 0's part 0 combines {0} with {2} from rank 2, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {2})
// CHECK: chain: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: operator-legality violated in 'chain': P = 4, step 0, rank 0, part 0: rank 0's part 0 combines {0} with {2} from rank 2, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {2})

module {
  coll.program @chain attributes {kind = #coll.kind<allreduce>, noncommutative, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce" combine {2 -> 0 [0]}
    coll.step "reduce" combine {1 -> 0 [0]}
    coll.step "reduce" combine {0 -> 3 [0]}
    coll.step "broadcast" copy {3 -> 0 [0]}
    coll.step "broadcast" copy {0 -> 1 [0]}
    coll.step "broadcast" copy {1 -> 2 [0]}
  }
}
