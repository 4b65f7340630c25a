// Mutant of proven/double-count-overwritten.mlir (P = 2): step "d" copies the other way, so the doubly counted total stays in rank 0's result slot and is copied to rank 1.
// Expected: coverage violated (the rank 0 contribution twice in rank 0's part 0).
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 2, after the last step, rank 0, part 0: the rank 0 contribution reaches rank 0's part 0 2 times (expected contributions of ranks {0, 1}, each once, found contributions of ranks {0, 0, 1, 1})
// CHECK: t: VIOLATED for P in {2} ({{.*}} s)
// PASS: error: coverage violated in 't': P = 2, after the last step, rank 0, part 0: the rank 0 contribution reaches rank 0's part 0 2 times (expected contributions of ranks {0, 1}, each once, found contributions of ranks {0, 0, 1, 1})
// SIM: error: coverage violated in 't' for P = 2: step 2, the contribution of rank 0 to part 0 reaches rank 0 twice (it holds {0, 1} and receives {0, 1} from rank 0)

module {
  coll.program @t attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_scratch_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "a" combine {1 -> 0 [0]}
    coll.step "b" copy {0 -> 0 [0] into [1]}
    coll.step "c" fold {0 -> 0 [1] into [0]}
    coll.step "d" copy {0 -> 0 [0] into [1]}
    coll.step "e" copy {0 -> 1 [0]}
  }
}
