// Mutant of a reduce (P = 8) whose first step is one strided block of two runs of two senders ({2, 3} and {6, 7}, stride 4, shift 6): rank 6, in the second run, sends its value to the root again at step 3. Only the strided-run membership formula knows rank 6 sent at step 0 (the correct program without step 3 is proven).
// Expected: ownership violated (the value was handed on at step 0).
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 8, step 3, rank 6, part 0: rank 6's part 0 is sent at step 3, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// CHECK: red: VIOLATED for P in {8} ({{.*}} s)
// PASS: error: ownership violated in 'red': P = 8, step 3, rank 6, part 0: rank 6's part 0 is sent at step 3, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// SIM: error: ownership violated in 'red' for P = 8: step 3, rank 6 sends part 0, which it gave away at step 0

module {
  coll.program @red attributes {kind = #coll.kind<reduce>, num_parts = 1 : i64, num_ranks = 8 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "reduce" combine {2 -> 0 [0], 3 -> 1 [0], 6 -> 4 [0], 7 -> 5 [0]}
    coll.step "reduce" combine {4 -> 0 [0], 5 -> 1 [0]}
    coll.step "reduce" combine {1 -> 0 [0]}
    coll.step "reduce" combine {6 -> 0 [0]}
  }
}
