// Mutant: A binomial broadcast (P = 8) whose last step has ranks 1 and 2 both send
// to rank 3: singleton blocks whose receiver intervals touch.
// Expected: matching violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 8, step 2, rank 3: rank 3 receives two messages in one step (from 1 and 2) (expected one message to rank 3, found 2)
// CHECK: bcast: VIOLATED for P in {8} ({{.*}} s)
// PASS: error: matching violated in 'bcast': P = 8, step 2, rank 3: rank 3 receives two messages in one step (from 1 and 2) (expected one message to rank 3, found 2)
// SIM: error: matching violated in 'bcast' for P = 8: step 2, rank 3 receives two messages in one step (from 1 and 2)

module {
  coll.program @bcast attributes {kind = #coll.kind<broadcast>, num_parts = 1 : i64, num_ranks = 8 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "broadcast" copy {0 -> 4 [0]}
    coll.step "broadcast" copy {0 -> 2 [0], 4 -> 6 [0]}
    coll.step "broadcast" copy {0 -> 1 [0], 1 -> 3 [0], 2 -> 3 [0], 4 -> 5 [0], 6 -> 7 [0]}
  }
}
