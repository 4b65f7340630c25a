// A correct schedule: a binomial broadcast from rank 2 (P = 4).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: bcast: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: yes (data is only copied)
// IR: coll.program @bcast

module {
  coll.program @bcast attributes {kind = #coll.kind<broadcast>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 2 : i64} {
    coll.step "binomial" copy {2 -> 0 [0]}
    coll.step "binomial" copy {2 -> 3 [0], 0 -> 1 [0]}
  }
}
