// A correct schedule: recursive doubling, hand-written (P = 4): combines by exchange, so the encoding without the reduce-then-copy shape is used.
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: doubling: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: no (rank 0's part 0 and rank 1's part 0 reduce in their own order from step 0 on)
// IR: coll.program @doubling

module {
  coll.program @doubling attributes {kind = #coll.kind<allreduce>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "exchange" combine {0 -> 1 [0], 1 -> 0 [0], 2 -> 3 [0], 3 -> 2 [0]}
    coll.step "exchange" combine {0 -> 2 [0], 2 -> 0 [0], 1 -> 3 [0], 3 -> 1 [0]}
  }
}
