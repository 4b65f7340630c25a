// Mutant: Copies of placement 0 over the xor group (P = 4) under kind
// alltoall, an allgather's schedule: rank 1 overwrites its own block with rank
// 0's, the last copy of a block that must reach another rank.
// Expected: ownership violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-ownership 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: ownership violated: P = 4, step 0, rank 1, part 0: rank 1's part 0 = {1} is overwritten with {0} from rank 0's part 0, destroying the last copy of the rank 1 contribution (expected a block still needed is not overwritten, found the last copy of {1} overwritten)
// CHECK: alltoall: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: ownership violated in 'alltoall': P = 4, step 0, rank 1, part 0: rank 1's part 0 = {1} is overwritten with {0} from rank 0's part 0, destroying the last copy of the rank 1 contribution (expected a block still needed is not overwritten, found the last copy of {1} overwritten)
// SIM: error: ownership violated in 'alltoall' for P = 4: step 0, rank 1 overwrites part 0 = {1} with {0} from rank 0, losing the only copy of the contribution of rank 1

module {
  coll.program @alltoall attributes {group = #coll.group<xor>, kind = #coll.kind<alltoall>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "exchange" copy move [0, 2) -> [2, 4)
    coll.step "exchange" copy move [0, 1) -> [1, 2)
  }
}
