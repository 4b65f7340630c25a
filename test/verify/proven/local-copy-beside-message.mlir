// A correct schedule: a two-rank allreduce of one part through scratch
// parts. Each rank sends its part 0 to the other (as scratch part 1) and in
// the same step copies it locally into scratch part 2, then combines part 1
// into part 0 locally. The local copy beside the message is no second
// message (found by a review, when Z3 counted it as one and the simulation
// did not).
// RUN: collc verify %s --cross-check | FileCheck %s
// RUN: coll-opt %s --coll-verify-matching --coll-verify-ownership --coll-verify-coverage --coll-verify-operator-legality --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = {{[0-9]+}} matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: loc: all properties proven for P in {2}
// IR: coll.program @loc

module {
  coll.program @loc attributes {kind = #coll.kind<allreduce>, num_parts = 3 : i64, num_ranks = 2 : i64, num_scratch_parts = 2 : i64, op = #coll.op<sum>} {
    coll.step "x" copy {0 -> 1 [0] into [1], 1 -> 0 [0] into [1], 0 -> 0 [0] into [2], 1 -> 1 [0] into [2]}
    coll.step "y" combine {0 -> 0 [1] into [0], 1 -> 1 [1] into [0]}
  }
}
