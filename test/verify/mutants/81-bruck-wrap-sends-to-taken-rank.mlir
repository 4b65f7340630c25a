// Mutant: Bruck's alltoall (P = 5) with rank 4 sending to rank 1 instead of 0 in
// phase 0: the senders 0..3 are one block, rank 4 one of its own, and their
// receiver intervals overlap at rank 1.
// Expected: matching violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 5, step 0, rank 1: rank 1 receives two messages in one step (from 0 and 4) (expected one message to rank 1, found 2)
// CHECK: bruck: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: matching violated in 'bruck': P = 5, step 0, rank 1: rank 1 receives two messages in one step (from 0 and 4) (expected one message to rank 1, found 2)
// SIM: error: matching violated in 'bruck' for P = 5: step 0, rank 1 receives two messages in one step (from 0 and 4)

module {
  coll.program @bruck attributes {kind = #coll.kind<alltoall>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [1, 3], 1 -> 2 [1, 3], 2 -> 3 [1, 3], 3 -> 4 [1, 3], 4 -> 1 [1, 3]}
    coll.step "phase 1" copy {0 -> 2 [2, 3], 1 -> 3 [2, 3], 2 -> 4 [2, 3], 3 -> 0 [2, 3], 4 -> 1 [2, 3]}
    coll.step "phase 2" copy {0 -> 4 [4], 1 -> 0 [4], 2 -> 1 [4], 3 -> 2 [4], 4 -> 3 [4]}
  }
}
