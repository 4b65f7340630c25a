// The proof step of `collc compile` and `collc policy` alone: every spec
// proven for each P it admits in 1..64 (or its fixed P); the module is
// unchanged. test/verify/proof-cache.test covers the cache through collc.
// RUN: rm -rf %t && mkdir -p %t
// RUN: coll-opt %s -split-input-file -coll-prove-rank-counts="proof-cache=%t/cache" | FileCheck %s
// RUN: cat $(grep -l "schedule<linear>" %t/cache/*.proofs) | FileCheck %s --check-prefix=CACHE
// RUN: cat $(grep -l "num_ranks = 6" %t/cache/*.proofs) | FileCheck %s --check-prefix=FIXED
// RUN: ls %t/cache | wc -l | FileCheck %s --check-prefix=TWO
// TWO: {{^2$}}
// RUN: not coll-opt %s -split-input-file -coll-prove-rank-counts="proof-cache=%s/cache" 2>&1 | FileCheck %s --check-prefix=BADDIR

// CHECK: coll.collective @ring {
// CHECK-NOT: coll.program
// CACHE: {{^}}collc proof cache 1{{$}}
// CACHE-NEXT: {{^build-id [0-9a-f]+$}}
// CACHE-NEXT: {{^}}key {butterfly_r = 0 : i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}{{$}}
// CACHE-NEXT: {{^}}proven 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64{{$}}
// BADDIR: error: cannot make the proof cache directory '{{.*}}prove-rank-counts.mlir/cache': Not a directory
coll.collective @ring {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<linear>}

// -----

// A fixed rank count: that P alone (the P = 6 butterfly on cyclic(6)).
// CHECK: coll.collective @fixed {
// FIXED: {{^}}key {butterfly_r = 0 : i64, group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_ranks = 6 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}{{$}}
// FIXED-NEXT: {{^}}proven 6{{$}}
coll.collective @fixed {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_ranks = 6 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, schedule = #coll.schedule<butterfly>}
