// RUN: coll-opt %s --coll-annotate-cost="alpha=1 beta=0.001 gamma=0.0005 bytes=4096" | FileCheck %s
//
// The ring on 4 ranks for 4 KiB: every step sends and combines one part of
// 1 KiB, 1 + 1.024 (+ 0.512 when it merges) us; the total is design.md's
// 2(P-1) alpha + 2(P-1)/P beta M + (P-1)/P gamma M = 6 + 6.144 + 1.536.
// CHECK-LABEL: coll.program @ring attributes {cost_us = 13.68{{[0-9]*}} : f64
// CHECK: cost = {bytes = 1.024000e+03 : f64, hops = 1 : i64, merged_bytes = 1.024000e+03 : f64, time_us = 2.536000e+00 : f64}
// CHECK: coll.step "all-gather"
// CHECK-SAME: cost = {bytes = 1.024000e+03 : f64, hops = 1 : i64, merged_bytes = 0.000000e+00 : f64, time_us = 2.024000e+00 : f64}

// A chain broadcast on 4 ranks in 4 segments: each step is priced for one
// segment (1 KiB: 1 + 1.024 us), the program for the 3 + 4 - 1 = 6
// pipelined super-steps: 6 * 2.024 = 12.144 us (not 3 * (1 + 4.096)).
// CHECK-LABEL: coll.program @chain attributes {cost_us = 12.14{{[0-9]*}} : f64
// CHECK: coll.step "broadcast"
// CHECK-SAME: cost = {bytes = 1.024000e+03 : f64, hops = 1 : i64, merged_bytes = 0.000000e+00 : f64, time_us = 2.024000e+00 : f64}

module {
  coll.program @ring attributes {group = #coll.group<cyclic>, kind = #coll.kind<allreduce>, num_parts = 4 : i64, num_ranks = 4 : i64, op = #coll.op<sum>} {
    coll.step "reduce-scatter" combine {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]} move [0, 1) -> [1, 2)
    coll.step "reduce-scatter" combine {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]} move [1, 2) -> [2, 3)
    coll.step "reduce-scatter" combine {0 -> 1 [2], 1 -> 2 [3], 2 -> 3 [0], 3 -> 0 [1]} move [2, 3) -> [3, 4)
    coll.step "all-gather" copy {0 -> 1 [1], 1 -> 2 [2], 2 -> 3 [3], 3 -> 0 [0]} move [3, 4) -> [0, 1)
    coll.step "all-gather" copy {0 -> 1 [0], 1 -> 2 [1], 2 -> 3 [2], 3 -> 0 [3]} move [0, 1) -> [1, 2)
    coll.step "all-gather" copy {0 -> 1 [3], 1 -> 2 [0], 2 -> 3 [1], 3 -> 0 [2]} move [1, 2) -> [2, 3)
  }
  coll.program @chain attributes {kind = #coll.kind<broadcast>, num_parts = 1 : i64, num_ranks = 4 : i64, op = #coll.op<sum>, root = 0 : i64, segments = 4 : i64} {
    coll.step "broadcast" copy {0 -> 1 [0]}
    coll.step "broadcast" copy {1 -> 2 [0]}
    coll.step "broadcast" copy {2 -> 3 [0]}
  }
}
