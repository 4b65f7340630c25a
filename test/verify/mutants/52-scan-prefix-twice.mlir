// Mutant of the recursive-doubling scan (P = 5): rank 1 sends its prefix to rank 3 again in the last step, so rank 3 counts ranks 0 and 1 twice.
// Expected: coverage violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 5, after the last step, rank 3, part 0: the rank 0 contribution reaches rank 3's part 0 2 times (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {0, 0, 1, 1, 2, 3})
// CHECK: scan_doubling: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: coverage violated in 'scan_doubling': P = 5, after the last step, rank 3, part 0: the rank 0 contribution reaches rank 3's part 0 2 times (expected contributions of ranks {0, 1, 2, 3}, each once, found contributions of ranks {0, 0, 1, 1, 2, 3})
// SIM: error: coverage violated in 'scan_doubling' for P = 5: step 2, the contribution of rank 0 to part 0 reaches rank 3 twice (it holds {0, 1, 2, 3} and receives {0, 1} from rank 1)

module {
  coll.program @scan_doubling attributes {kind = #coll.kind<inclusive_scan>, num_parts = 1 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "scan" fold {0 -> 1 [0], 1 -> 2 [0], 2 -> 3 [0], 3 -> 4 [0]}
    coll.step "scan" fold {0 -> 2 [0], 1 -> 3 [0], 2 -> 4 [0]}
    coll.step "scan" fold {0 -> 4 [0], 1 -> 3 [0]}
  }
}
