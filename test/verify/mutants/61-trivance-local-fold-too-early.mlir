// Mutant of Trivance (P = 9): in phase 0 the local fold of the value from
// the left runs before the value goes to the left neighbour, which then
// counts its own contribution twice.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 9, after the last step, rank 0, part 0: the rank 0 contribution reaches rank 0's part 0 2 times (expected contributions of ranks {0, 1, 2, 3, 4, 5, 6, 7, 8}, each once, found contributions of ranks {0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8})
// CHECK: trivance: VIOLATED for P in {9} ({{.*}} s)
// PASS: error: coverage violated in 'trivance': P = 9, after the last step, rank 0, part 0: the rank 0 contribution reaches rank 0's part 0 2 times (expected contributions of ranks {0, 1, 2, 3, 4, 5, 6, 7, 8}, each once, found contributions of ranks {0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8})
// SIM: error: coverage violated in 'trivance' for P = 9: step 2, the contribution of rank 0 to part 0 reaches rank 0 twice (it holds {0, 8} and receives {0, 1} from rank 1)

module {
  coll.program @trivance attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 9 : i64, num_scratch_parts = 1 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [0] into [1], 1 -> 2 [0] into [1], 2 -> 3 [0] into [1], 3 -> 4 [0] into [1], 4 -> 5 [0] into [1], 5 -> 6 [0] into [1], 6 -> 7 [0] into [1], 7 -> 8 [0] into [1], 8 -> 0 [0] into [1]}
    coll.step "phase 0" fold {0 -> 0 [1] into [0], 1 -> 1 [1] into [0], 2 -> 2 [1] into [0], 3 -> 3 [1] into [0], 4 -> 4 [1] into [0], 5 -> 5 [1] into [0], 6 -> 6 [1] into [0], 7 -> 7 [1] into [0], 8 -> 8 [1] into [0]}
    coll.step "phase 0" fold {0 -> 8 [0], 1 -> 0 [0], 2 -> 1 [0], 3 -> 2 [0], 4 -> 3 [0], 5 -> 4 [0], 6 -> 5 [0], 7 -> 6 [0], 8 -> 7 [0]}
    coll.step "phase 1" copy {0 -> 3 [0] into [1], 1 -> 4 [0] into [1], 2 -> 5 [0] into [1], 3 -> 6 [0] into [1], 4 -> 7 [0] into [1], 5 -> 8 [0] into [1], 6 -> 0 [0] into [1], 7 -> 1 [0] into [1], 8 -> 2 [0] into [1]}
    coll.step "phase 1" fold {0 -> 6 [0], 1 -> 7 [0], 2 -> 8 [0], 3 -> 0 [0], 4 -> 1 [0], 5 -> 2 [0], 6 -> 3 [0], 7 -> 4 [0], 8 -> 5 [0]}
    coll.step "phase 1" fold {0 -> 0 [1] into [0], 1 -> 1 [1] into [0], 2 -> 2 [1] into [0], 3 -> 3 [1] into [0], 4 -> 4 [1] into [0], 5 -> 5 [1] into [0], 6 -> 6 [1] into [0], 7 -> 7 [1] into [0], 8 -> 8 [1] into [0]}
  }
}

