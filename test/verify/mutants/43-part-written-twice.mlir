// Mutant of a two-step allreduce (P = 2): rank 1 sends part 0 twice and rank 0 files two parts as its part 2.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 2, step 1, rank 0, part 2: rank 0 takes two parts of rank 1's message as its part 2 (expected every part written at most once per step, found part 2 written twice)
// CHECK: copydup: VIOLATED for P in {2} ({{.*}} s)
// PASS: error: matching violated in 'copydup': P = 2, step 1, rank 0, part 2: rank 0 takes two parts of rank 1's message as its part 2 (expected every part written at most once per step, found part 2 written twice)
// SIM: error: matching violated in 'copydup' for P = 2: step 1, rank 1 sends part 0 twice in one message to rank 0

module {
  coll.program @copydup attributes {kind = #coll.kind<allreduce>, num_parts = 3 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "rs" combine {0 -> 1 [0, 2], 1 -> 0 [1]}
    coll.step "ag" copy {1 -> 0 [0, 2, 0] into [0, 2, 2], 0 -> 1 [1]}
  }
}
