// Mutant: P = 1 with a scratch copy: the second step copies the scratch vector
// into placement 0 twice in one local copy. Found by a review: Z3 said
// violated, the simulation (which skipped local copies) said nothing.
// Expected: matching violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 1, step 1, rank 0: two vectors arrive in placement 0 (rank 0's part 0) in one step
// CHECK: p: VIOLATED for P in {1} ({{.*}} s)
// PASS: error: matching violated in 'p': P = 1, step 1, rank 0: two vectors arrive in placement 0 (rank 0's part 0) in one step
// SIM: error: matching violated in 'p' for P = 1: step 1, rank 0 writes its part 0 twice in one local copy

module {
  coll.program @p attributes {group = #coll.group<generated>, group_elements = array<i64: 0>, kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 1 : i64, num_scratch_parts = 1 : i64, op = #coll.op<sum>} {
    coll.step "s" copy vectors {0 -> 1}
    coll.step "s" copy vectors {1 -> 0, 1 -> 0}
  }
}
