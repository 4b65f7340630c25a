// A schedule not proven is an error at its spec naming P, the property and
// the counterexample, and the pass fails: a noncommutative operator on the
// ring first merges non-adjacent ranks at P = 3.
// RUN: not coll-opt %s -coll-prove-rank-counts 2>&1 | FileCheck %s

// CHECK: prove-rank-counts-errors.mlir:[[@LINE+3]]:1: error: the schedule of 'nc_ring' is not proven for P = 3: operator-legality violated: {{.+}}
// CHECK: note: a noncommutative operator needs a schedule whose every merge joins adjacent runs of ranks, the lower rank's first: a tree rooted at rank 0, a scan, or recursive halving on xor(P)
// CHECK-NOT: error
coll.collective @nc_ring {element_type = i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, noncommutative, op = #coll.op<custom>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
coll.collective @later {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}
