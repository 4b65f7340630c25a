// Mutant: A program for 2^32 ranks with an empty group table: P * P wrapped to
// 0, so the table passed its size check and the verifier ran out of memory.
// Rank counts are now bounded (2^20).
// Expected: rejected as input (exit 2), by the verifier and the simulation.
// RUN: collc verify %s 2> %t; test $? -eq 2
// RUN: FileCheck %s < %t
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s
// CHECK: error: 'coll.program' op needs between 1 and 1048576 ranks, got 4294967296

module {
  coll.program @big attributes {group = #coll.group<generated>, group_elements = array<i64>, kind = #coll.kind<allreduce>, num_parts = 1 : i64, num_ranks = 4294967296 : i64, op = #coll.op<sum>} {
  }
}
