// A correct schedule on the rank level: a local copy reads one part twice
// (the shifted butterfly copies one slot into two scratch slots, and its
// recorded execution lists that as one local transfer), then a fold
// exchanges a copy (P = 2). Z3's matching query, the exact replay and the
// simulation agree that only a message must name each part once; found
// when the recording of butterfly(r = 2) at P = 9 crashed the replay's
// explanation.
// RUN: collc verify %s | FileCheck %s
// RUN: collc verify %s --replay | FileCheck %s
// RUN: collc verify %s --cross-check | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = 2 matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: twice: all properties proven for P in {2}
// IR: coll.program @twice

module {
  coll.program @twice attributes {kind = #coll.kind<allreduce>, num_parts = 3 : i64, num_scratch_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "local" copy {0 -> 0 [0, 0] into [1, 2], 1 -> 1 [0, 0] into [1, 2]}
    coll.step "reduce-scatter" fold {0 -> 1 [1] into [0], 1 -> 0 [2] into [0]}
  }
}
