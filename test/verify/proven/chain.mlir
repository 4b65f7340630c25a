// A correct schedule: a rank-ordered chain with a non-commutative operator (P = 4).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: chain: all properties proven for P in {4}
// CHECK-NEXT: bitwise-identical results: yes (each part is reduced once, then copied)
// IR: coll.program @chain

module {
  coll.program @chain attributes {kind = #coll.kind<allreduce>, noncommutative, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce" combine {0 -> 1 [0]}
    coll.step "reduce" combine {1 -> 2 [0]}
    coll.step "reduce" combine {2 -> 3 [0]}
    coll.step "broadcast" copy {3 -> 0 [0]}
    coll.step "broadcast" copy {0 -> 1 [0]}
    coll.step "broadcast" copy {1 -> 2 [0]}
  }
}
