// Mutant of a binomial-style reduce (P = 3): rank 0 lists part 0 twice in one message.
// Expected: matching violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 3, step 0, rank 0, part 0: rank 0 sends part 0 twice in one message to rank 1 (expected every part at most once per message, found part 0 twice)
// CHECK: dupsend: VIOLATED for P in {3} ({{.*}} s)
// PASS: error: matching violated in 'dupsend': P = 3, step 0, rank 0, part 0: rank 0 sends part 0 twice in one message to rank 1 (expected every part at most once per message, found part 0 twice)
// SIM: error: matching violated in 'dupsend' for P = 3: step 0, rank 0 sends part 0 twice in one message to rank 1

module {
  coll.program @dupsend attributes {kind = #coll.kind<reduce>, root = 1 : i64, num_parts = 1 : i64, num_ranks = 3 : i64, op = #coll.op<sum>} {
    coll.step "reduce" combine {0 -> 1 [0, 0]}
  }
}
