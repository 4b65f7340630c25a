// Mutant of a binomial broadcast from rank 2 (P = 4): rank 0 does not forward to rank 1.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 1, part 0: rank 1's part 0 is empty after the last step (it never receives a value) (expected contributions of ranks {2}, each once, found contributions of ranks {})
// CHECK: bcast: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'bcast': P = 4, after the last step, rank 1, part 0: rank 1's part 0 is empty after the last step (it never receives a value) (expected contributions of ranks {2}, each once, found contributions of ranks {})
// SIM: error: coverage violated in 'bcast' for P = 4: after the last step, rank 1 ends without part 0 (it never received it)

module {
  coll.program @bcast attributes {kind = #coll.kind<broadcast>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 2 : i64} {
    coll.step "binomial" copy {2 -> 0 [0]}
    coll.step "binomial" copy {2 -> 3 [0]}
  }
}
