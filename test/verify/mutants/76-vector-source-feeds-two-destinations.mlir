// Mutant: The butterfly on cyclic(8) as vector moves, whose last step also
// copies placement 0 into scratch copy 1 (0 -> 12): both moves share the
// step's permutation, so rank 0 sends its part 0 twice in one message. Found
// by a review: the group level once proved it (at P = 256 too, beyond the
// simulation's reach).
// Expected: matching violated; the simulation finds the program wrong too.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-matching 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 8, step 5, rank 0, part 0: rank 0 sends part 0 twice in one message to rank 4 (placement 0 (rank 0's part 0) feeds two destinations) (expected every part at most once per message, found part 0 twice)
// CHECK: dup8: VIOLATED for P in {8} ({{.*}} s)
// PASS: error: matching violated in 'dup8': P = 8, step 5, rank 0, part 0: rank 0 sends part 0 twice in one message to rank 4 (placement 0 (rank 0's part 0) feeds two destinations) (expected every part at most once per message, found part 0 twice)
// SIM: error: matching violated in 'dup8' for P = 8: step 5, rank 0 sends part 0 twice in one message to rank 4

module {
  coll.program @dup8 attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 16 : i64, num_ranks = 8 : i64, num_scratch_parts = 8 : i64, op = #coll.op<sum>} {
    coll.step "s" combine vectors {4 -> 0, 5 -> 1, 6 -> 2, 7 -> 3}
    coll.step "s" combine vectors {2 -> 0, 3 -> 1}
    coll.step "s" combine vectors {1 -> 0}
    coll.step "s" copy vectors {0 -> 1}
    coll.step "s" copy vectors {0 -> 2, 1 -> 3}
    coll.step "s" copy vectors {0 -> 4, 1 -> 5, 2 -> 6, 3 -> 7, 0 -> 12}
  }
}
