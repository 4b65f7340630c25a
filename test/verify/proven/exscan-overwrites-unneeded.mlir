// A correct, unusual exclusive scan (P = 3, from a review): step 3 overwrites
// the last copy of rank 2's own value, which no rank's result needs, so it
// is no ownership violation for Z3 nor for the simulation.
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = 3    matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: ex1: all properties proven for P in {3}
// IR: coll.program @ex1

module {
  coll.program @ex1 attributes {kind = #coll.kind<exclusive_scan>, num_parts = 2 : i64, num_ranks = 3 : i64, op = #coll.op<sum>} {
    coll.step "a" copy {0 -> 1 [0] into [1]}
    coll.step "b" fold {0 -> 1 [0]}
    coll.step "c" copy {1 -> 2 [0] into [1]}
    coll.step "d" copy {0 -> 2 [0]}
  }
}
