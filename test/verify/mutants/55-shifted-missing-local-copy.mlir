// Mutant of the shifted butterfly (butterfly(r = 1), P = 7): the local copy that gives {3, 0} its own slot is gone, so the fold lands in an empty scratch slot.
// Expected: ownership violated.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 7, step 0, rank 3, part 0: placement 3 copy 1 (rank 3's part 0 in scratch copy 1) is combined into at step 0, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// CHECK: butterfly_r1: VIOLATED for P in {7} ({{.*}} s)
// PASS: error: ownership violated in 'butterfly_r1': P = 7, step 0, rank 3, part 0: placement 3 copy 1 (rank 3's part 0 in scratch copy 1) is combined into at step 0, but the rank never received it (expected a block the rank holds, found a block the rank never received)
// SIM: error: ownership violated in 'butterfly_r1' for P = 7: step 0, rank 3 combines into part 7, which it does not hold (it never received it)

module {
  coll.program @butterfly_r1 attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 14 : i64, num_ranks = 7 : i64, num_scratch_parts = 7 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" fold vectors {4 -> 0, 5 -> 1, 6 -> 2, 0 -> 10}
    coll.step "local" copy vectors {1 -> 8}
    coll.step "reduce-scatter" fold vectors {2 -> 0, 3 -> 1, 10 -> 8, 4 -> 2}
    coll.step "reduce-scatter" fold vectors {1 -> 0, 2 -> 8}
    coll.step "local" copy vectors {8 -> 1}
    coll.step "all-gather" copy vectors {0 -> 2, 1 -> 3}
    coll.step "all-gather" copy vectors {0 -> 4, 1 -> 5, 2 -> 6}
  }
}
