// Mutant of the direct exclusive chain (P = 4, non-commutative): a rank's
// carry starts from its own value and folds the prefix in behind it (the
// shortcut a commutative operator would allow), so rank 1 passes on
// x_1 . x_0 instead of x_0 . x_1. Every result holds the right ranks once,
// so only operator legality is violated; with `sum` the same program is
// proven (the RUN lines below).
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-verify-operator-legality 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: sed -e 's/noncommutative, //' -e 's/#coll.op<custom>/#coll.op<sum>/' %s > %t.sum.mlir
// RUN: collc verify %t.sum.mlir --cross-check | FileCheck %s --check-prefix=SUM
// The dataflow simulation does not check operator legality (the recorded
// execution's affine maps do, on the real plan); it accepts the program:
// RUN: coll-opt %s --coll-check-dataflow > /dev/null
// CHECK: operator-legality violated: P = 4, step 2, rank 1, part 2: rank 1's part 2 combines {1} with {0} from rank 1, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {1} and {0})
// CHECK: exscan_concat: VIOLATED for P in {4} ({{.*}} s)
// PASS: error: operator-legality violated in 'exscan_concat': P = 4, step 2, rank 1, part 2: rank 1's part 2 combines {1} with {0} from rank 1, which are not adjacent runs of ranks in the holders' order (expected operands that are consecutive rank ranges, the lower holder's first, found {1} and {0})
// SUM: exscan_concat: all properties proven for P in {4}

module {
  coll.program @exscan_concat attributes {kind = #coll.kind<exclusive_scan>, noncommutative, num_parts = 3 : i64, num_ranks = 4 : i64, num_scratch_parts = 1 : i64, op = #coll.op<custom>} {
    coll.step "scan" copy {0 -> 1 [0] into [1]}
    coll.step "carry" copy {1 -> 1 [0] into [2]}
    coll.step "carry" fold {1 -> 1 [1] into [2]}
    coll.step "scan" copy {1 -> 2 [2] into [1]}
    coll.step "carry" copy {2 -> 2 [0] into [2]}
    coll.step "carry" fold {2 -> 2 [1] into [2]}
    coll.step "scan" copy {2 -> 3 [2] into [1]}
  }
}
