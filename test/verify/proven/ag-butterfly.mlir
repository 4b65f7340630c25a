// A correct schedule: the butterfly allgather with explicit transfers (P = 5).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: ag_butterfly: all properties proven for P in {5}
// CHECK-NEXT: bitwise-identical results: yes (data is only copied)
// IR: coll.program @ag_butterfly

module {
  coll.program @ag_butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allgather>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 4 [3], 4 -> 0 [4]}
    coll.step "all-gather" copy {0 -> 2 [0], 1 -> 3 [1], 2 -> 4 [2], 3 -> 0 [3], 4 -> 1 [4]}
    coll.step "all-gather" copy {0 -> 3 [0, 4], 1 -> 4 [1, 0], 2 -> 0 [2, 1], 3 -> 1 [3, 2], 4 -> 2 [4, 3]}
  }
}
