// Mutant: An alltoall by ReTri (P = 9) whose phase-1 right step sends 4 ranks on
// instead of 3: every rank does it, so the step is one block of P senders and
// its shift is composed into the part's path.
// Expected: coverage violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 9, after the last step, rank 0, part 2: rank 0's part 2 ends with the rank 6 contribution, which it should not have (expected contributions of ranks {7}, each once, found contributions of ranks {6})
// CHECK: retri: VIOLATED for P in {9} ({{.*}} s)
// PASS: error: coverage violated in 'retri': P = 9, after the last step, rank 0, part 2: rank 0's part 2 ends with the rank 6 contribution, which it should not have (expected contributions of ranks {7}, each once, found contributions of ranks {6})
// SIM: error: coverage violated in 'retri' for P = 9: after the last step, rank 0 ends with part 2 = {6}, missing {7} and with contributions it should not have: {6}

module {
  coll.program @retri attributes {kind = #coll.kind<alltoall>, num_parts = 9 : i64, num_ranks = 9 : i64, op = #coll.op<sum>} {
    coll.step "phase 0" copy {0 -> 1 [1, 4, 7], 1 -> 2 [1, 4, 7], 2 -> 3 [1, 4, 7], 3 -> 4 [1, 4, 7], 4 -> 5 [1, 4, 7], 5 -> 6 [1, 4, 7], 6 -> 7 [1, 4, 7], 7 -> 8 [1, 4, 7], 8 -> 0 [1, 4, 7]}
    coll.step "phase 0" copy {0 -> 8 [2, 5, 8], 1 -> 0 [2, 5, 8], 2 -> 1 [2, 5, 8], 3 -> 2 [2, 5, 8], 4 -> 3 [2, 5, 8], 5 -> 4 [2, 5, 8], 6 -> 5 [2, 5, 8], 7 -> 6 [2, 5, 8], 8 -> 7 [2, 5, 8]}
    coll.step "phase 1" copy {0 -> 4 [2, 3, 4], 1 -> 5 [2, 3, 4], 2 -> 6 [2, 3, 4], 3 -> 7 [2, 3, 4], 4 -> 8 [2, 3, 4], 5 -> 0 [2, 3, 4], 6 -> 1 [2, 3, 4], 7 -> 2 [2, 3, 4], 8 -> 3 [2, 3, 4]}
    coll.step "phase 1" copy {0 -> 6 [5, 6, 7], 1 -> 7 [5, 6, 7], 2 -> 8 [5, 6, 7], 3 -> 0 [5, 6, 7], 4 -> 1 [5, 6, 7], 5 -> 2 [5, 6, 7], 6 -> 3 [5, 6, 7], 7 -> 4 [5, 6, 7], 8 -> 5 [5, 6, 7]}
  }
}
