// Mutant of the binomial reduce (P = 4): rank 1 sends its value to the root a second time, so it would be counted twice.
// Expected: ownership violated (the value was handed on).
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 4, step 2, rank 1, part 0: rank 1's part 0 is sent at step 2, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// CHECK: red: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: ownership violated in 'red': P = 4, step 2, rank 1, part 0: rank 1's part 0 is sent at step 2, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// SIM: error: ownership violated in 'red' for P = 4: step 2, rank 1 sends part 0, which it gave away at step 0

module {
  coll.program @red attributes {kind = #coll.kind<reduce>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "reduce" combine {1 -> 0 [0], 3 -> 2 [0]}
    coll.step "reduce" combine {2 -> 0 [0]}
    coll.step "reduce" combine {1 -> 0 [0]}
  }
}
