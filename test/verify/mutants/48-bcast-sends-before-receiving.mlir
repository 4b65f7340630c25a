// Mutant of the binomial broadcast from rank 2 (P = 5): rank 0 sends to rank 3 in step 1, a step before it receives the buffer.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 5, step 1, rank 0, part 0: rank 0's part 0 is sent at step 1, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// CHECK: bcast_binomial: VIOLATED for P in {5} ({{.*}} s)
// PASS: error: ownership violated in 'bcast_binomial': P = 5, step 1, rank 0, part 0: rank 0's part 0 is sent at step 1, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// SIM: error: ownership violated in 'bcast_binomial' for P = 5: step 1, rank 0 sends part 0, which it does not hold (it never received it)

module {
  coll.program @bcast_binomial attributes {kind = #coll.kind<broadcast>, num_parts = 1 : i64, num_ranks = 5 : i64, op = #coll.op<sum>, root = 2 : i64} {
    coll.step "broadcast" copy {2 -> 1 [0]}
    coll.step "broadcast" copy {2 -> 4 [0], 0 -> 3 [0]}
    coll.step "broadcast" copy {2 -> 3 [0], 4 -> 0 [0]}
  }
}
