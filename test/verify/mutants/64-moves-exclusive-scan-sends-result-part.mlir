// Mutant: A butterfly for P = 2 as group moves under kind exclusive_scan: the
// move sends part 1, the result part no rank holds before the scan (only part
// 0 carries a value).
// Expected: ownership violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 2, step 0, rank 0, part 1: rank 0's part 1 is sent at step 0, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// CHECK: exscan: VIOLATED for P in {2} ({{.*}} s)
// PASS: error: ownership violated in 'exscan': P = 2, step 0, rank 0, part 1: rank 0's part 1 is sent at step 0, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// SIM: error: ownership violated in 'exscan' for P = 2: step 0, rank 0 sends part 1, which it does not hold (it never received it)

module {
  coll.program @exscan attributes {group = #coll.group<cyclic>, kind = #coll.kind<exclusive_scan>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
  }
}
