// An all-to-all whose header declares three of its four parts scratch and
// which has no step: the one data part (rank r's own block) ends where it
// starts. Once proven; now refused by the op verifier before any proof.
// Expected: rejected as input
module {
  coll.program @scratchy attributes {kind = #coll.kind<alltoall>, num_parts = 4 : i64, num_ranks = 4 : i64, num_scratch_parts = 3 : i64, op = #coll.op<sum>} {
  }
}
