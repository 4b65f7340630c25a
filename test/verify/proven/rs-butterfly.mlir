// A correct schedule: the butterfly reduce_scatter with explicit transfers (P = 5).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: rs_butterfly: all properties proven for P in {5}
// CHECK-NEXT: bitwise-identical results: yes (each part is reduced once, then copied)
// IR: coll.program @rs_butterfly

module {
  coll.program @rs_butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<reduce_scatter>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 2 [2, 1], 1 -> 3 [3, 2], 2 -> 4 [4, 3], 3 -> 0 [0, 4], 4 -> 1 [1, 0]}
    coll.step "reduce-scatter" combine {0 -> 3 [3], 1 -> 4 [4], 2 -> 0 [0], 3 -> 1 [1], 4 -> 2 [2]}
    coll.step "reduce-scatter" combine {0 -> 4 [4], 1 -> 0 [0], 2 -> 1 [1], 3 -> 2 [2], 4 -> 3 [3]}
  }
}
