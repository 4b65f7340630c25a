// Mutant of Trivance (P = 9): in phase 1 ranks 1 and 2 swap receivers, so rank 4
// gets rank 2's window {1, 2, 3} where rank 1's {0, 1, 2} belongs.
// Expected: coverage violated (3 twice, 0 missing), by Z3's symbolic paths through
// the folds and by the exact replay alike; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: collc verify %s --replay > %t.replay; test $? -eq 1
// RUN: FileCheck %s --check-prefix=REPLAY < %t.replay
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-verify-coverage=replay=true 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated 
// CHECK-NEXT: coverage violated: P = 9, after the last step, rank 4, part 0: the rank 3 contribution reaches rank 4's part 0 2 times (expected contributions of ranks {0, 1, 2, 3, 4, 5, 6, 7, 8}, each once, found contributions of ranks {1, 2, 3, 3, 4, 5, 6, 7, 8})
// REPLAY: coverage violated by replay
// REPLAY-NEXT: coverage violated: P = 9, after the last step, rank 4, part 0: the rank 3 contribution reaches rank 4's part 0 2 times (expected contributions of ranks {0, 1, 2, 3, 4, 5, 6, 7, 8}, each once, found contributions of ranks {1, 2, 3, 3, 4, 5, 6, 7, 8})
// PASS: error: coverage violated in 'trivance': P = 9, after the last step, rank 4, part 0: the rank 3 contribution reaches rank 4's part 0 2 times
// SIM: error: coverage violated in 'trivance' for P = 9: step 5, the contribution of rank 3 to part 0 reaches rank 4 twice (it holds {3, 4, 5, 6, 7, 8} and receives {1, 2, 3} from rank 4)

module {
  coll.program @trivance attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 9 : i64, num_scratch_parts = 1 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [0] into [1], 1 -> 2 [0] into [1], 2 -> 3 [0] into [1], 3 -> 4 [0] into [1], 4 -> 5 [0] into [1], 5 -> 6 [0] into [1], 6 -> 7 [0] into [1], 7 -> 8 [0] into [1], 8 -> 0 [0] into [1]}
    coll.step "phase 0" fold {0 -> 8 [0], 1 -> 0 [0], 2 -> 1 [0], 3 -> 2 [0], 4 -> 3 [0], 5 -> 4 [0], 6 -> 5 [0], 7 -> 6 [0], 8 -> 7 [0]}
    coll.step "phase 0" fold {0 -> 0 [1] into [0], 1 -> 1 [1] into [0], 2 -> 2 [1] into [0], 3 -> 3 [1] into [0], 4 -> 4 [1] into [0], 5 -> 5 [1] into [0], 6 -> 6 [1] into [0], 7 -> 7 [1] into [0], 8 -> 8 [1] into [0]}
    coll.step "phase 1" copy {0 -> 3 [0] into [1], 1 -> 5 [0] into [1], 2 -> 4 [0] into [1], 3 -> 6 [0] into [1], 4 -> 7 [0] into [1], 5 -> 8 [0] into [1], 6 -> 0 [0] into [1], 7 -> 1 [0] into [1], 8 -> 2 [0] into [1]}
    coll.step "phase 1" fold {0 -> 6 [0], 1 -> 7 [0], 2 -> 8 [0], 3 -> 0 [0], 4 -> 1 [0], 5 -> 2 [0], 6 -> 3 [0], 7 -> 4 [0], 8 -> 5 [0]}
    coll.step "phase 1" fold {0 -> 0 [1] into [0], 1 -> 1 [1] into [0], 2 -> 2 [1] into [0], 3 -> 3 [1] into [0], 4 -> 4 [1] into [0], 5 -> 5 [1] into [0], 6 -> 6 [1] into [0], 7 -> 7 [1] into [0], 8 -> 8 [1] into [0]}
  }
}

