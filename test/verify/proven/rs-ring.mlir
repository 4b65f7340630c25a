// A correct schedule: a reduce_scatter ring as group moves (P = 4): the sum of block x ends on rank x.
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: rs_ring: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: yes (each part is reduced once, then copied)
// IR: coll.program @rs_ring

module {
  coll.program @rs_ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<reduce_scatter>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [1, 2) -> [2, 3)
    coll.step "reduce-scatter" combine move [2, 3) -> [3, 4)
    coll.step "reduce-scatter" combine move [3, 4) -> [0, 1)
  }
}
