// RUN: coll-opt %s -split-input-file -coll-check-dataflow -verify-diagnostics | FileCheck %s

// A correct ring for P = 2 passes unchanged.
// CHECK-LABEL: coll.program @ring2
// CHECK-NEXT: coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]}
// CHECK-NEXT: coll.step "all-gather" copy {0 -> 1 [1], 1 -> 0 [0]}
coll.program @ring2 attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]}
  coll.step "all-gather" copy {0 -> 1 [1], 1 -> 0 [0]}
}

// -----

// The all-gather step is missing.
// expected-error @+1 {{coverage violated in 'ring2' for P = 2: after the last step, rank 0 ends without part 0 (given away at step 0)}}
coll.program @ring2 attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]}
}

// -----

coll.program @ring2 attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 0 [1]}
  // expected-error @+1 {{ownership violated in 'ring2' for P = 2: step 1, rank 0 sends part 0, which it gave away at step 0}}
  coll.step "all-gather" copy {0 -> 1 [0], 1 -> 0 [1]}
}

// -----

coll.program @ring2 attributes {kind = #coll.kind<allreduce>, num_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
  // expected-error @+1 {{matching violated in 'ring2' for P = 2: step 0, rank 0 sends two messages in one step (to 1 and 1)}}
  coll.step "reduce-scatter" combine {0 -> 1 [0], 0 -> 1 [1]}
}

// -----

coll.program @three attributes {kind = #coll.kind<allreduce>, num_parts = 1 : i64, num_ranks = 3 : i64, op = #coll.op<sum>} {
  coll.step "reduce-scatter" combine {0 -> 1 [0]}
  coll.step "reduce-scatter" copy {1 -> 0 [0]}
  // expected-error @+1 {{coverage violated in 'three' for P = 3: step 2, the contribution of rank 0 to part 0 reaches rank 1 twice (it holds {0, 1} and receives {0, 1} from rank 0)}}
  coll.step "reduce-scatter" combine {0 -> 1 [0]}
}
