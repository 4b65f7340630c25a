// Mutant: A direct alltoall (P = 3) in which rank 1 sends the same message twice in
// one step: equal transfers have the same key, and the second is a block of
// its own, so it counts as a second message.
// Expected: matching violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 3, step 0, rank 1: rank 1 sends two messages in one step (to 2 and 2) (expected one message from rank 1, found 2)
// CHECK: direct: VIOLATED for P in {3} ({{.*}} s)
// PASS: error: matching violated in 'direct': P = 3, step 0, rank 1: rank 1 sends two messages in one step (to 2 and 2) (expected one message from rank 1, found 2)
// SIM: error: matching violated in 'direct' for P = 3: step 0, rank 1 sends two messages in one step (to 2 and 2)

module {
  coll.program @direct attributes {kind = #coll.kind<alltoall>, num_parts = 3 : i64, num_ranks = 3 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [1], 1 -> 2 [1], 2 -> 0 [1], 1 -> 2 [1]}
    coll.step "phase 0" copy {0 -> 2 [2], 1 -> 0 [2], 2 -> 1 [2]}
  }
}
