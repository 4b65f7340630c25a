// A correct schedule: the butterfly as group moves (P = 5), as `collc emit --stage=moves` prints it.
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: butterfly: all properties proven for P in {5}
// CHECK-NEXT: bitwise-identical results: yes (each part is reduced once, then copied)
// IR: coll.program @butterfly

module {
  coll.program @butterfly attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 5 : i64, num_ranks = 5 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [3, 5) -> [0, 2)
    coll.step "reduce-scatter" combine move [2, 3) -> [0, 1)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 1) -> [2, 3)
    coll.step "all-gather" copy move [0, 2) -> [3, 5)
  }
}
