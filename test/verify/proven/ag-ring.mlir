// A correct schedule: an allgather ring as group moves (P = 4).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: ag_ring: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: yes (data is only copied)
// IR: coll.program @ag_ring

module {
  coll.program @ag_ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allgather>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [1, 2) -> [2, 3)
    coll.step "all-gather" copy move [2, 3) -> [3, 4)
  }
}
