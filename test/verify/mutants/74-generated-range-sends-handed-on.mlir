// Mutant: Recursive halving on the Klein group as range moves (P = 4) whose
// second halving reads placement 2, already handed on by the first.
// Expected: ownership violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 4, step 1, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// CHECK: klein: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: ownership violated in 'klein': P = 4, step 1, rank 2, part 0: placement 2 (rank 2's part 0) is sent at step 1, but it was handed on at step 0 (expected a block the rank holds, found a block given away at step 0)
// SIM: error: ownership violated in 'klein' for P = 4: step 1, rank 0 sends part 2, which it gave away at step 0

module {
  coll.program @klein attributes {group = #coll.group<generated>, group_elements = array<i64: 0, 1, 2, 3, 1, 0, 3, 2, 2, 3, 0, 1, 3, 2, 1, 0>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine move [2, 4) -> [0, 2)
    coll.step "reduce-scatter" combine move [2, 3) -> [0, 1)
    coll.step "all-gather" copy move [0, 1) -> [1, 2)
    coll.step "all-gather" copy move [0, 2) -> [2, 4)
  }
}
