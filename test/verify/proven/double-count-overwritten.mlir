// A correct, unusual allreduce (P = 2): step "c" folds rank 0's total into
// its own result slot a second time, and step "d" replaces that slot with
// the total again before anything reads it. Coverage is about final values,
// so neither Z3 nor the simulation calls it a violation (the simulation once
// reported the transient double count).
// RUN: collc verify %s | FileCheck %s
// RUN: coll-opt %s --coll-verify-coverage --coll-check-dataflow | FileCheck %s --check-prefix=IR
// CHECK: P = 2    matching proven {{.*}} | ownership proven {{.*}} | coverage proven {{.*}} | operator-legality proven
// CHECK-NEXT: t: all properties proven for P in {2}
// IR: coll.program @t

module {
  coll.program @t attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_scratch_parts = 1 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "a" combine {1 -> 0 [0]}
    coll.step "b" copy {0 -> 0 [0] into [1]}
    coll.step "c" fold {0 -> 0 [1] into [0]}
    coll.step "d" copy {0 -> 0 [1] into [0]}
    coll.step "e" copy {0 -> 1 [0]}
  }
}
