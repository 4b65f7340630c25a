// A correct schedule: a binomial reduce to rank 0 (P = 4).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: reduce: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: yes (each part is reduced once, then copied)
// IR: coll.program @reduce

module {
  coll.program @reduce attributes {kind = #coll.kind<reduce>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "binomial" combine {1 -> 0 [0], 3 -> 2 [0]}
    coll.step "binomial" combine {2 -> 0 [0]}
  }
}
