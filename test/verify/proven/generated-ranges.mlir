// A correct schedule: recursive halving on the Klein group (P = 4) written
// as range moves over its element table (the expansion writes vector moves;
// range moves on a generated group once crashed the matching query).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: klein: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: yes (each part is reduced once, then copied)
// IR: coll.program @klein

module {
  coll.program @klein attributes {group = #coll.group<generated>, group_elements = array<i64: 0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [0, 2)
    coll.step "reduce-scatter" combine move [1, 2) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [2, 4)
  }
}
