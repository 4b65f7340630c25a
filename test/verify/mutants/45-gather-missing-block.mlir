// Mutant of the binomial gather to rank 1 (P = 6): rank 3 forwards its own block but not rank 4's.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 6, after the last step, rank 1, part 4: rank 1's part 4 is empty after the last step (it never receives a value) (expected contributions of ranks {4}, each once, found contributions of ranks {})
// CHECK: gather_binomial: VIOLATED for P in {6} ({{.*}} s)
// PASS: error: coverage violated in 'gather_binomial': P = 6, after the last step, rank 1, part 4: rank 1's part 4 is empty after the last step (it never receives a value) (expected contributions of ranks {4}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'gather_binomial' for P = 6: after the last step, rank 1 ends without part 4 (it never received it)

module {
  coll.program @gather_binomial attributes {kind = #coll.kind<gather>, num_parts = 6 : i64, num_ranks = 6 : i64, op = #coll.op<sum>, root = 1 : i64} {
    coll.step "gather" copy {2 -> 1 [2], 4 -> 3 [4], 0 -> 5 [0]}
    coll.step "gather" copy {3 -> 1 [3]}
    coll.step "gather" copy {5 -> 1 [5, 0]}
  }
}
