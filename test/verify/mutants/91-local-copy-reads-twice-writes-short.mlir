// Mutant of test/verify/proven/local-copy-reads-twice.mlir: rank 1's local
// copy reads part 0 twice but writes one part. A local copy may read a part
// twice; it must still write as many parts as it reads.
// Expected: matching violated, by Z3, the replay and the simulation alike.
// RUN: collc verify %s > %t; test $? -eq 1
// RUN: FileCheck %s < %t
// RUN: collc verify %s --replay > %t.replay; test $? -eq 1
// RUN: FileCheck %s < %t.replay
// RUN: not coll-opt %s --coll-check-dataflow 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK: matching violated: P = 2, step 0, rank 1: rank 1 sends 2 parts to rank 1, which receives 1
// CHECK: twice: VIOLATED for P in {2}
// SIM: error: matching violated in 'twice' for P = 2: step 0, rank 1 copies 2 parts into 1

module {
  coll.program @twice attributes {kind = #coll.kind<allreduce>, num_parts = 3 : i64, num_scratch_parts = 2 : i64, num_ranks = 2 : i64, op = #coll.op<sum>} {
    coll.step "local" copy {0 -> 0 [0, 0] into [1, 2], 1 -> 1 [0, 0] into [1]}
    coll.step "reduce-scatter" fold {0 -> 1 [1] into [0], 1 -> 0 [2] into [0]}
  }
}
