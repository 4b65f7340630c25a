// Mutant of a pairwise exchange (P = 2): both ranks file the partner's part 0 as their part 1 and back.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 2, after the last step, rank 0, part 0: rank 0's part 0 ends with data of part 1 (from rank 1) (expected contributions of ranks {0, 1}, each once, found contributions of ranks {0, rank 1's part 1})
// CHECK: foreign: VIOLATED for P in {2} ({{.*}} s)
// PASS: error: coverage violated in 'foreign': P = 2, after the last step, rank 0, part 0: rank 0's part 0 ends with data of part 1 (from rank 1) (expected contributions of ranks {0, 1}, each once, found contributions of ranks {0, rank 1's part 1})
// SIM: error: coverage violated in 'foreign' for P = 2: after the last step, rank 0 ends with part 0 = {0, rank 1's part 1}, missing {1}

module {
  coll.program @foreign attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "exchange" combine {0 -> 1 [0, 1] into [1, 0], 1 -> 0 [0, 1] into [1, 0]}
  }
}
