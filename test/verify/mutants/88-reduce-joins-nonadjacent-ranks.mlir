// Mutant of a rank-ordered reduce (P = 4, non-commutative): step 1 has rank 3 combine
// into rank 0, which holds only {0}: the operands {0} and {3} are not adjacent.
// Expected: operator-legality violated at step 1, by Z3's symbolic contributions and
// by the replay of the merges as runs of ranks alike.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: collc verify %s --replay > %t.replay; test $? -eq 1
// RUN: FileCheck %s --check-prefix=REPLAY < %t.replay
// RUN: not coll-opt %s --coll-verify-operator-legality 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-verify-operator-legality=replay=true 2>&1 | FileCheck %s --check-prefix=PASS
// The dataflow simulation does not check operator legality; it accepts the program:
// RUN: coll-opt %s --coll-check-dataflow > /dev/null
// CHECK: operator-legality violated 
// CHECK-NEXT: operator-legality violated: P = 4, step 1, rank 0, part 0: rank 0's part 0 combines {0} with {3} from rank 3, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {3})
// REPLAY: operator-legality violated by replay
// REPLAY-NEXT: operator-legality violated: P = 4, step 1, rank 0, part 0: rank 0's part 0 combines {0} with {3} from rank 3, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {0} and {3})
// PASS: error: operator-legality violated in 'reduce': P = 4, step 1, rank 0, part 0: rank 0's part 0 combines {0} with {3} from rank 3

module {
  coll.program @reduce attributes {kind = #coll.kind<reduce>, noncommutative, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "reduce" combine {2 -> 1 [0]}
    coll.step "reduce" combine {3 -> 0 [0]}
    coll.step "reduce" combine {1 -> 0 [0]}
  }
}
