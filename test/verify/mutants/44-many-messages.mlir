// Mutant of the ring (P = 2): 16 copies of the same transfer in one step.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 2, step 1, rank 0: rank 0 sends two messages in one step (to 1 and 1) (expected one message from rank 0, found 16)
// CHECK: wrap: VIOLATED for P in {2} ({{.*}} s)
// PASS: error: matching violated in 'wrap': P = 2, step 1, rank 0: rank 0 sends two messages in one step (to 1 and 1) (expected one message from rank 0, found 16)
// SIM: error: matching violated in 'wrap' for P = 2: step 1, rank 1 sends two messages in one step (to 0 and 0)

module {
  coll.program @wrap attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "rs" combine {0 -> 1 [0], 1 -> 0 [1]}
    coll.step "ag" copy {1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 1 -> 0 [0], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1], 0 -> 1 [1]}
  }
}
