// A correct schedule by accident: recursive halving on xor(4) whose first
// halving is the unaligned range [2, 4) -> [1, 3). What runs sends both
// vectors along t_1 t_2^-1 = t_3, so vector 3 lands on placement t_3 t_3 =
// t_0 and vector 2 on t_1: the halving still pairs every vector with
// another, and the result is right. The verifier reads the moves as they
// run (once it called this a violation the simulation did not see).
// RUN: collc verify %s --cross-check | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: halving: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: yes (each part is reduced once, then copied)
// CHECK-NEXT: cross-check: the simulation agrees for P in {4}
// IR: coll.program @halving

module {
  coll.program @halving attributes {group = #coll.group<xor>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [1, 3)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [2, 4)
  }
}
