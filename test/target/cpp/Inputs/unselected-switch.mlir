module {
  coll.collective @retri {kind = #coll.kind<alltoall>, num_ranks = 9 : i64, op = #coll.op<sum>, rank_constraint = #coll.ranks<any>, reconfigure, schedule = #coll.schedule<balanced_ternary>}
}
