// Mutant: A binomial gather (P = 4) whose last message files parts 2 and 3 under
// each other's index: the part runs move part indices, so coverage is not
// split per part, and root part 2 ends with rank 3's block.
// Expected: coverage violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-coverage 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: coverage violated: P = 4, after the last step, rank 0, part 2: rank 0's part 2 ends without the rank 2 contribution (expected contributions of ranks {2}, each once, found contributions of ranks {rank 3's part 3})
// CHECK: gather: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: coverage violated in 'gather': P = 4, after the last step, rank 0, part 2: rank 0's part 2 ends without the rank 2 contribution (expected contributions of ranks {2}, each once, found contributions of ranks {rank 3's part 3})
// SIM: error: coverage violated in 'gather' for P = 4: after the last step, rank 0 ends with part 2 = {rank 3's part 3}, missing {2} and with contributions it should not have: {rank 3's part 3}

module {
  coll.program @gather attributes {kind = #coll.kind<gather>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 0 : i64} {
    coll.step "gather" copy {1 -> 0 [1], 3 -> 2 [3]}
    coll.step "gather" copy {2 -> 0 [2, 3] into [3, 2]}
  }
}
