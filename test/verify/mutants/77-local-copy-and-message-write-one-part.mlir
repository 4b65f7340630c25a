// Mutant: A two-rank allreduce whose all-gather step also has rank 1 copy its
// part 1 into its part 0 while rank 0's message writes it: which value part 0
// keeps would depend on the order the runtime applies them. (A local copy
// beside a message is no second message: proven/local-copy-beside-
// message.mlir.)
// Expected: matching violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 2, step 1, rank 1, part 0: rank 1's part 0 is written by two transfers in one step (from ranks 0 and 1) (expected every part written at most once per step, found part 0 written twice)
// CHECK: twowriters: VIOLATED for P in {2} ({{.*}} s)
// PASS: error: matching violated in 'twowriters': P = 2, step 1, rank 1, part 0: rank 1's part 0 is written by two transfers in one step (from ranks 0 and 1) (expected every part written at most once per step, found part 0 written twice)
// SIM: error: matching violated in 'twowriters' for P = 2: step 1, rank 1's part 0 is written by two transfers in one step (from ranks 0 and 1)

module {
  coll.program @twowriters attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [1], 1 -> 0 [0]}
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 0 [1], 1 -> 1 [1] into [0]}
  }
}
